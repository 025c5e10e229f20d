/**
 * Largest message (characters) a request may carry. Checked where requests are validated (422
 * naming the field, nothing stored) and again by the engine for turns from elsewhere. No
 * imports: the contract (also bundled into the renderer) and the engine both read it.
 */
export const MAX_MESSAGE_CHARS = 1_000_000;
