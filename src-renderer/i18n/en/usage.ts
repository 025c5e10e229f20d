/** The Usage screen. */
export const usage = {};
