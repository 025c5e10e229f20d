/** Settings, web search. */
export const webSearch = {};
