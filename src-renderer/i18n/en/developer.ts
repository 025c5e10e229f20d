/** The Developer screen. */
export const developer = {};
