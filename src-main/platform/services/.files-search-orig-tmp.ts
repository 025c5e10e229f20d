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

/** The words of a free-text query: quoted later, so no FTS syntax from the user gets through. */
export function queryTerms(text: string): string[] {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length <= 64))];
  const terms = words.filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\p{N}/u.test(w)));
  return (terms.length ? terms : words).slice(0, 24);
}

const quote = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** A safe FTS5 query from free text: its words, quoted, stop words dropped unless nothing else is left, OR-ed. */
export function ftsQuery(text: string): string | null {
  const terms = queryTerms(text);
  return terms.length ? terms.map(quote).join(' OR ') : null;
}

/**
 * bm25 needs each term's document count, which FTS5 gets by walking the term's whole doclist:
 * over a million passages a very common term costs tens of milliseconds per query and adds
 * little to the ranking. Terms found in more than COMMON passages are left out of the query
 * (unless nothing rarer is left). Counts are bounded walks; a common verdict is cached for a while.
 */
const COMMON = 5000;
const CACHE_MS = 5 * 60_000;

class Searcher {
  private readonly df = new Map<string, { n: number; at: number }>();
  private readonly countStmt;
  private readonly eligibleStmt;

  constructor(private readonly db: DB) {
    this.countStmt = db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM file_passages_fts WHERE file_passages_fts MATCH ? LIMIT ?)');
    this.eligibleStmt = db.prepare<[string], { id: number; filename: string }>(
      "SELECT id, filename FROM files WHERE id IN (SELECT value FROM json_each(?)) AND status = 'completed'",
    );
  }

  private docCount(term: string): number {
    const now = Date.now();
    const hit = this.df.get(term);
    if (hit && now - hit.at < CACHE_MS) return hit.n;
    const n = this.countStmt.get(`text : ${quote(term)}`, COMMON + 1)!.n;
    // Only the "common" verdict is cached: a rarer count must see passages indexed a moment ago.
    if (n > COMMON) {
      if (this.df.size > 20_000) this.df.delete(this.df.keys().next().value!);
      this.df.set(term, { n, at: now });
    }
    return n;
  }

  search(fileIds: number[], query: string, limit: number): PassageHit[] {
    const ids = [...new Set(fileIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
    const n = Math.max(0, Math.min(Math.floor(limit), 100));
    const terms = queryTerms(query);
    if (!ids.length || !n || !terms.length) return [];
    const files = new Map(this.eligibleStmt.all(JSON.stringify(ids)).map((r) => [r.id, r.filename]));
    if (!files.size) return [];
    const counted = terms.map((t) => ({ t, n: this.docCount(t) })).filter((x) => x.n > 0);
    if (!counted.length) return [];
    let kept = counted.filter((x) => x.n <= COMMON);
    if (!kept.length) kept = counted.sort((a, b) => a.n - b.n).slice(0, 2);
    const match = `fkey : (${[...files.keys()].map((id) => `"f${id}"`).join(' OR ')}) AND text : (${kept.map((x) => quote(x.t)).join(' OR ')})`;
    // The fkey column has weight 0: which file a passage is in must not change its rank.
    const rows = this.db
      .prepare<[string, number], Omit<PassageHit, 'filename'>>(
        `SELECT p.file_id, p.id AS passage_id, p.ordinal, p.text, bm25(file_passages_fts, 1.0, 0.0) AS rank
         FROM file_passages_fts JOIN file_passages p ON p.id = file_passages_fts.rowid
         WHERE file_passages_fts MATCH ? ORDER BY rank LIMIT ?`,
      )
      .all(match, n);
    return rows.map((h) => ({ file_id: h.file_id, filename: files.get(h.file_id) ?? '', passage_id: h.passage_id, ordinal: h.ordinal, text: h.text, rank: h.rank }));
  }
}

const searchers = new WeakMap<DB, Searcher>();

/** Best passages of `fileIds` for `query`, best first; files not (yet) completed give nothing. */
export function searchPassages(db: DB, fileIds: number[], query: string, limit = 8): PassageHit[] {
  let s = searchers.get(db);
  if (!s) searchers.set(db, (s = new Searcher(db)));
  return s.search(fileIds, query, limit);
}
