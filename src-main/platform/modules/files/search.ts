import type { DB } from '../../db/connection.js';
import { PassageIndex, type RankedRow } from './search-store.js';
import { queryTerms, quoteTerm as quote } from '../../db/fts-query.js';

export interface PassageHit {
  file_id: number;
  filename: string;
  passage_id: number;
  ordinal: number;
  text: string;
  /** FTS5 bm25 score: lower is better; hits come sorted by it. */
  rank: number;
}

/**
 * bm25 needs each term's document count, which FTS5 gets by walking the term's whole doclist:
 * over a million passages a very common term costs tens of milliseconds per query and adds
 * little to the ranking. Terms found in more than COMMON passages are left out of the query
 * (unless nothing rarer is left). Counts are bounded walks; a common term's full count is taken
 * once and cached for a while (it only chooses terms, it never enters a score).
 */
const COMMON = 5000;
const CACHE_MS = 5 * 60_000;

class Searcher {
  private readonly df = new Map<string, { n: number; at: number }>();
  private readonly index: PassageIndex;

  constructor(db: DB) {
    this.index = new PassageIndex(db);
  }

  private docCount(term: string): number {
    const now = Date.now();
    const hit = this.df.get(term);
    if (hit && now - hit.at < CACHE_MS) return hit.n;
    let n = this.index.countUpTo(`text : ${quote(term)}`, COMMON + 1);
    // Only common terms are cached: a rarer count must see passages indexed a moment ago. Their
    // true count tells the rarest of them apart (a bounded count would call them all equal).
    if (n > COMMON) {
      n = this.index.count(`text : ${quote(term)}`);
      if (this.df.size > 20_000) this.df.delete(this.df.keys().next().value!);
      this.df.set(term, { n, at: now });
    }
    return n;
  }

  /**
   * Only common words were asked for. Their OR matches most passages of the files and bm25 must
   * score every match (87 ms p99 over 50 files of a million passages). So: drop words in at least
   * half of all passages (FTS5 clamps their negative IDF to 1e-6: they rank nothing), take the two
   * rarest left, rank the passages holding both first, then fill up from their OR. Scores are the
   * same bm25 as for the OR (same phrases); only a passage holding one word that would outscore
   * one holding both comes later.
   */
  private commonOnly(scope: string, counted: { t: string; n: number }[], n: number): RankedRow[] {
    // max(id) >= the passage count, so "half" is never underestimated.
    const half = this.index.maxPassageId() / 2;
    const sorted = [...counted].sort((a, b) => a.n - b.n);
    const useful = sorted.filter((x) => x.n < half);
    const two = (useful.length ? useful : sorted).slice(0, 2).map((x) => quote(x.t));
    const rows = this.index.ranked(`${scope} AND text : (${two.join(' AND ')})`, n);
    if (rows.length < n && two.length > 1) {
      const seen = new Set(rows.map((r) => r.passage_id));
      for (const r of this.index.ranked(`${scope} AND text : (${two.join(' OR ')})`, n)) if (rows.length < n && !seen.has(r.passage_id)) rows.push(r);
    }
    return rows;
  }

  search(fileIds: number[], query: string, limit: number): PassageHit[] {
    const ids = [...new Set(fileIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
    const n = Math.max(0, Math.min(Math.floor(limit), 100));
    const terms = queryTerms(query);
    if (!ids.length || !n || !terms.length) return [];
    const files = new Map(this.index.completedFiles(ids).map((r) => [r.id, r.filename]));
    if (!files.size) return [];
    const counted = terms.map((t) => ({ t, n: this.docCount(t) })).filter((x) => x.n > 0);
    if (!counted.length) return [];
    // One FTS5 query scoped to the files by their fkey tokens (see migration 002).
    const scope = `fkey : (${[...files.keys()].map((id) => `"f${id}"`).join(' OR ')})`;
    const rare = counted.filter((x) => x.n <= COMMON);
    const rows = rare.length ? this.index.ranked(`${scope} AND text : (${rare.map((x) => quote(x.t)).join(' OR ')})`, n) : this.commonOnly(scope, counted, n);
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
