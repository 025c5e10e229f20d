/** Errors the app words (api/field-errors.ts, api/errors.ts). */
export const errors = {};
