/**
 * The one full-text query builder: free text (a search box, a question to an agent) into an FTS5
 * MATCH expression, for file passages and memories alike. Each word is quoted, so no FTS syntax
 * from the user gets through (NEAR, AND, column filters, a stray quote).
 */

/** At most this many words of a query are searched for. */
export const MAX_QUERY_TERMS = 24;
/** A longer "word" is no word (a hash, base64): it is left out. */
const MAX_TERM_CHARS = 64;

// Words that match nearly every passage or memory: they cost the most and rank nothing.
const STOPWORDS = new Set(
  ('a an and are as at be but by for from has have how i if in into is it its me my no not of on or our so that the their them then there these ' +
    'they this to was we were what when where which who why will with you your do does did can could would should about after all also any ' +
    'been before being both each few more most other over same some such than too very just only own up down out off again further once here ' +
    'der die das und ist le la les et de des un une el los las y en')
    .split(' '),
);

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
const isContentWord = (w: string) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w));

/**
 * The words of a free-text query, lower-cased, each once: stop words and single letters (not
 * digits) are left out, unless nothing else is left, so "the" alone still searches for "the".
 */
export function queryTerms(text: string): string[] {
  const words = [...new Set(wordsOf(text).filter((w) => w.length <= MAX_TERM_CHARS))];
  const terms = words.filter(isContentWord);
  return (terms.length ? terms : words).slice(0, MAX_QUERY_TERMS);
}

/**
 * A text's words as queryTerms keeps them, in order and each time it occurs: the text side of
 * finding a query's terms in it as a phrase (retrieval's fusion).
 */
export function contentWords(text: string): string[] {
  return wordsOf(text).filter(isContentWord);
}

/** One term as an FTS5 string (a phrase of its tokens). */
export const quoteTerm = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** A safe FTS5 query from free text: its terms quoted and OR-ed; null when it holds no word. */
export function ftsQuery(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map(quoteTerm).join(' OR ') : null;
}
