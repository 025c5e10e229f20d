/** The chat screen (but the conversation list). */
export const chat = {};
