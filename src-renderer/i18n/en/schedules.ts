/** The Schedules screen. */
export const schedules = {};
