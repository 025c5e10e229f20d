import type { DB } from '../db/connection.js';

export interface PassageHit {
  file_id: number;
  filename: string;
  passage_id: number;
  ordinal: number;
  text: string;
  /** FTS5 bm25 score: lower is better; hits come sorted by it. */
  rank: number;
}

// Words that match nearly every passage: they cost the most and rank nothing.
const STOPWORDS = new Set(
  ('a an and are as at be but by for from has have how i if in into is it its me my no not of on or our so that the their them then there these ' +
    'they this to was we were what when where which who why will with you your do does did can could would should about after all also any ' +
    'been before being both each few more most other over same some such than too very just only own up down out off again further once here ' +
    'der die das und ist le la les et de des un une el los las y en')
    .split(' '),
);

/**
 * A safe FTS5 query from free text: its words, quoted (so no FTS syntax from the user gets
 * through), stop words dropped unless nothing else is left, OR-ed so bm25 ranks partial matches.
 */
export function ftsQuery(text: string, maxTerms = 24): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length <= 64))];
  let terms = words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
  if (!terms.length) terms = words;
  if (!terms.length) return null;
  return terms
    .slice(0, maxTerms)
    .map((t) => `"${t.replace(/"/g, '""')}"`)
    .join(' OR ');
}

const cache = new WeakMap<DB, ReturnType<typeof prepare>>();

function prepare(db: DB) {
  return {
    range: db.prepare<[number], { lo: number | null; hi: number | null; filename: string }>(
      `SELECT (SELECT id FROM file_passages WHERE file_id = f.id ORDER BY ordinal ASC LIMIT 1) AS lo,
              (SELECT id FROM file_passages WHERE file_id = f.id ORDER BY ordinal DESC LIMIT 1) AS hi, f.filename
       FROM files f WHERE f.id = ? AND f.status = 'completed'`,
    ),
    // The rowid range lets FTS5 seek into each term's doclist instead of ranking the whole index.
    inRange: db.prepare<{ q: string; lo: number; hi: number; fileId: number; limit: number }, Omit<PassageHit, 'filename'>>(
      `SELECT p.file_id, p.id AS passage_id, p.ordinal, p.text, bm25(file_passages_fts) AS rank
       FROM file_passages_fts JOIN file_passages p ON p.id = file_passages_fts.rowid
       WHERE file_passages_fts MATCH @q AND file_passages_fts.rowid >= @lo AND file_passages_fts.rowid <= @hi AND p.file_id = @fileId
       ORDER BY rank LIMIT @limit`,
    ),
  };
}

/** Best passages of `fileIds` for `query`, best first; files not (yet) completed give nothing. */
export function searchPassages(db: DB, fileIds: number[], query: string, limit = 8): PassageHit[] {
  const q = ftsQuery(query);
  const ids = [...new Set(fileIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
  const n = Math.max(0, Math.min(Math.floor(limit), 100));
  if (!q || !ids.length || !n) return [];
  let s = cache.get(db);
  if (!s) cache.set(db, (s = prepare(db)));
  const hits: PassageHit[] = [];
  for (const fileId of ids) {
    const r = s.range.get(fileId);
    if (!r || r.lo === null || r.hi === null) continue;
    for (const h of s.inRange.all({ q, lo: r.lo, hi: r.hi, fileId, limit: n })) hits.push({ ...h, filename: r.filename });
  }
  hits.sort((a, b) => a.rank - b.rank || a.file_id - b.file_id || a.ordinal - b.ordinal);
  return hits.slice(0, n).map((h) => ({ file_id: h.file_id, filename: h.filename, passage_id: h.passage_id, ordinal: h.ordinal, text: h.text, rank: h.rank }));
}
