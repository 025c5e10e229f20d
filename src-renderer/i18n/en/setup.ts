/** First-run setup and model downloads. */
export const setup = {};
