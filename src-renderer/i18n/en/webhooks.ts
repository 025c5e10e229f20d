/** The Webhooks screen. */
export const webhooks = {};
