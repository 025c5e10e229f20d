/** The Agents screen. */
export const agents = {};
