/** The conversation list and session features. */
export const sessions = {};
