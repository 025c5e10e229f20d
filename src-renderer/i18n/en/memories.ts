/** The Memories screen. */
export const memories = {};
