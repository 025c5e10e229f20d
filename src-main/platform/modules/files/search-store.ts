import type { DB } from '../../db/connection.js';
import type { PassageHit } from './search.js';

export type RankedRow = Omit<PassageHit, 'filename'>;

/** The full-text index's statements (file_passages_fts), compiled once; search.ts builds the queries. */
export class PassageIndex {
  private readonly countStmt;
  private readonly fullCountStmt;
  private readonly maxIdStmt;
  private readonly eligibleStmt;
  private readonly rankedStmt;

  constructor(db: DB) {
    this.countStmt = db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM (SELECT 1 FROM file_passages_fts WHERE file_passages_fts MATCH ? LIMIT ?)');
    this.fullCountStmt = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM file_passages_fts WHERE file_passages_fts MATCH ?');
    this.maxIdStmt = db.prepare<[], { n: number | null }>('SELECT max(id) AS n FROM file_passages');
    this.eligibleStmt = db.prepare<[string], { id: number; filename: string }>(
      "SELECT id, filename FROM files WHERE id IN (SELECT value FROM json_each(?)) AND status = 'completed'",
    );
    // Ranked first, joined after: only the best `limit` passages are read from the table, not
    // every match (a join in the ranking query fetches each match's text before the sort).
    // The fkey column has weight 0: which file a passage is in must not change its rank, so a
    // passage scores exactly as in a query over the text alone.
    this.rankedStmt = db.prepare<[string, number], RankedRow>(
      `SELECT p.file_id, p.id AS passage_id, p.ordinal, p.text, r.rank
       FROM (SELECT rowid, bm25(file_passages_fts, 1.0, 0.0) AS rank FROM file_passages_fts WHERE file_passages_fts MATCH ? ORDER BY rank LIMIT ?) r
       JOIN file_passages p ON p.id = r.rowid ORDER BY r.rank`,
    );
  }

  /** Matches of an FTS5 query, counted up to `limit` (a bounded walk of the doclist). */
  countUpTo(match: string, limit: number): number {
    return this.countStmt.get(match, limit)!.n;
  }

  count(match: string): number {
    return this.fullCountStmt.get(match)!.n;
  }

  /** The highest passage id: at least the number of passages. */
  maxPassageId(): number {
    return this.maxIdStmt.get()!.n ?? 0;
  }

  /** The completed files among `ids`, with their names. */
  completedFiles(ids: number[]): { id: number; filename: string }[] {
    return this.eligibleStmt.all(JSON.stringify(ids));
  }

  /** The best `limit` passages for an FTS5 query, best first (bm25). */
  ranked(match: string, limit: number): RankedRow[] {
    return this.rankedStmt.all(match, limit);
  }
}
