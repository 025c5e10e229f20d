import type { DB } from '../db/connection.js';
import { statements } from '../db/statements.js';

/**
 * The one home of the file_passages rows' SQL: the reading process writes them (on its own
 * connection), the files module pages through them and purges a deleted file's. Full-text search
 * (files/search-store.ts) and retrieval read them through their own indexes.
 */
export class PassagesStore {
  private readonly sql;

  constructor(db: DB) {
    this.sql = statements(db);
  }

  /** The file's status as the reader sees it between batches (gone or restarted: stop writing). */
  fileStatus(fileId: number): string | undefined {
    return this.sql<[number], { status: string }>('SELECT status FROM files WHERE id = ?').get(fileId)?.status;
  }

  insert(fileId: number, ordinal: number, text: string): void {
    this.sql('INSERT INTO file_passages(file_id, ordinal, text) VALUES (?, ?, ?)').run(fileId, ordinal, text);
  }

  /** Deletes up to `limit` passages of a file (short transactions for a large file); returns how many went. */
  purgeSome(fileId: number, limit: number): number {
    return this.sql('DELETE FROM file_passages WHERE id IN (SELECT id FROM file_passages WHERE file_id = ? LIMIT ?)').run(fileId, limit).changes;
  }

  count(fileId: number): number {
    return this.sql<[number], { n: number }>('SELECT count(*) AS n FROM file_passages WHERE file_id = ?').get(fileId)?.n ?? 0;
  }

  page(fileId: number, limit: number, offset: number): { ordinal: number; text: string }[] {
    return this.sql<[number, number, number], { ordinal: number; text: string }>('SELECT ordinal, text FROM file_passages WHERE file_id = ? ORDER BY ordinal LIMIT ? OFFSET ?').all(
      fileId,
      limit,
      offset,
    );
  }
}
