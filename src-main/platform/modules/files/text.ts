/**
 * A file's extracted text read back from its passages. Each passage after the first opens with a
 * short overlap from the end of the one before (ingest/chunk.ts: the tail, then one space), so
 * the text is the passages with those overlaps taken off again. Where a passage was cut is a
 * paragraph break after a sentence end and a space elsewhere (the cut itself is not stored).
 */

/** The longest overlap the chunker writes is its last unit when short (150 characters); some slack. */
const MAX_OVERLAP = 400;
const SENTENCE_END = /[.!?:;。！？"”')\]]$/u;

/** How many characters of `cur` repeat the end of `prev` (the overlap and its space), or 0. */
export function overlapLength(prev: string, cur: string): number {
  for (let k = Math.min(MAX_OVERLAP, prev.length, cur.length - 1); k > 0; k--) {
    if (cur.charCodeAt(k) === 32 && cur.startsWith(prev.slice(prev.length - k))) return k + 1;
  }
  return 0;
}

export interface FileText {
  text: string;
  /** the whole text was longer than asked for; `text` is its beginning */
  truncated: boolean;
}

/**
 * Reads passages a page at a time (`page(offset, limit)`) and joins them, up to `maxChars`
 * characters: never more than that many held, whatever the file's size.
 */
export function joinPassages(page: (offset: number, limit: number) => { ordinal: number; text: string }[], maxChars: number): FileText {
  let text = '';
  let prev: string | null = null;
  for (let offset = 0; ; ) {
    const batch = page(offset, 200);
    if (!batch.length) return { text, truncated: false };
    offset += batch.length;
    for (const p of batch) {
      let piece = p.text;
      if (prev !== null) {
        const cut = overlapLength(prev, piece);
        piece = (cut && !SENTENCE_END.test(prev) ? ' ' : '\n\n') + piece.slice(cut);
      }
      prev = p.text;
      if (text.length + piece.length > maxChars) return { text: text + piece.slice(0, maxChars - text.length), truncated: true };
      text += piece;
    }
  }
}
