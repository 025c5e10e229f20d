/** The Files screen. */
export const files = {};
