import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';
import { PassagesStore } from '../../ingest/passages-store.js';
import type { FileStatus } from '../../contract/files.js';

export interface FileRow {
  id: number;
  workspace_id: number;
  user_id: number | null;
  filename: string;
  ext: string;
  kind: string;
  bytes: number;
  sha256: string;
  status: FileStatus;
  credits: number;
  error: string | null;
  metadata: string | null;
  passages: number;
  created_at: number;
  updated_at: number;
  processed_at: number | null;
}

/** `pending`: JSON ids of completed files whose vectors are still coming; they read, and filter as, `in_progress`. */
export type ListParams = { workspaceId: number; status: FileStatus | null; pending: string; q: string | null; limit: number; offset: number };

const VISIBLE = 'workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = @userId)';
const LIST = (dir: 'ASC' | 'DESC') =>
  `SELECT * FROM files WHERE workspace_id = @workspaceId
     AND (@status IS NULL OR (CASE WHEN id IN (SELECT value FROM json_each(@pending)) THEN 'in_progress' ELSE status END) = @status)
     AND (@q IS NULL OR instr(casefold(filename), @q) > 0)
   ORDER BY created_at ${dir}, id ${dir} LIMIT @limit OFFSET @offset`;

/**
 * The SQL of the files module (files, agent links), each statement compiled once per database.
 * Passages go through ingest's PassagesStore, the one home of their SQL (the reading process
 * writes them too). The services hold the rules; search.ts keeps the full-text queries.
 */
export class FileRows {
  private readonly sql;
  private readonly passages: PassagesStore;

  constructor(db: DB) {
    this.sql = statements(db);
    this.passages = new PassagesStore(db);
  }

  /** A file the user can see (a member of its workspace). */
  visible(id: number, userId: number): FileRow | undefined {
    return this.sql<{ id: number; userId: number }, FileRow>(`SELECT * FROM files WHERE id = @id AND ${VISIBLE}`).get({ id, userId });
  }

  /** The workspace's completed files that have passages: the ones whose vectors may still be coming. */
  completedWithPassages(workspaceId: number): number[] {
    return this.sql<[number], { id: number }>("SELECT id FROM files WHERE workspace_id = ? AND status = 'completed' AND passages > 0")
      .all(workspaceId)
      .map((r) => r.id);
  }

  byId(id: number): FileRow | undefined {
    return this.sql<[number], FileRow>('SELECT * FROM files WHERE id = ?').get(id);
  }

  status(id: number): FileStatus | undefined {
    return this.sql<[number], { status: FileStatus }>('SELECT status FROM files WHERE id = ?').get(id)?.status;
  }

  list(order: 'asc' | 'desc', p: ListParams): FileRow[] {
    return this.sql<ListParams, FileRow>(LIST(order === 'asc' ? 'ASC' : 'DESC')).all(p);
  }

  /**
   * Same bytes under the same extension: the extension decides how a file is read, so a PNG
   * uploaded as .txt and as .pdf stay two files.
   */
  sameBytes(workspaceId: number, sha256: string, bytes: number, ext: string): FileRow | undefined {
    return this.sql<{ workspaceId: number; sha256: string; bytes: number; ext: string }, FileRow>(
      'SELECT * FROM files WHERE workspace_id = @workspaceId AND sha256 = @sha256 AND bytes = @bytes AND ext = @ext ORDER BY id LIMIT 1',
    ).get({ workspaceId, sha256, bytes, ext });
  }

  insertWaiting(r: { workspaceId: number; userId: number | null; filename: string; ext: string; kind: string; bytes: number; sha256: string; now: number }): number {
    return Number(
      this.sql(
        `INSERT INTO files(workspace_id, user_id, filename, ext, kind, bytes, sha256, status, created_at, updated_at)
         VALUES (@workspaceId, @userId, @filename, @ext, @kind, @bytes, @sha256, 'waiting', @now, @now)`,
      ).run(r).lastInsertRowid,
    );
  }

  /** Deletes a file's row and its agent links (passages are purged apart, in batches). */
  delete(id: number): void {
    this.sql('DELETE FROM agent_files WHERE file_id = ?').run(id);
    this.sql('DELETE FROM files WHERE id = ?').run(id);
  }

  /** `waiting` or `failed` to `in_progress`; false when the file was in neither state. */
  markInProgress(id: number, now: number): boolean {
    return this.sql("UPDATE files SET status = 'in_progress', error = NULL, updated_at = ? WHERE id = ? AND status IN ('waiting','failed')").run(now, id).changes > 0;
  }

  markCompleted(id: number, r: { credits: number; metadata: string; passages: number; now: number }): void {
    this.sql("UPDATE files SET status = 'completed', credits = ?, error = NULL, metadata = ?, passages = ?, processed_at = ?, updated_at = ? WHERE id = ?").run(
      r.credits,
      r.metadata,
      r.passages,
      r.now,
      r.now,
      id,
    );
  }

  markFailed(id: number, error: string, now: number): void {
    this.sql("UPDATE files SET status = 'failed', error = ?, passages = 0, updated_at = ? WHERE id = ?").run(error, now, id);
  }

  /** Files left `in_progress` with no processing job pending or running for them. */
  /** Whether any file is being processed (read, or its passages written). */
  anyInProgress(): boolean {
    return this.sql<[], { x: number }>("SELECT 1 AS x FROM files WHERE status = 'in_progress' LIMIT 1").get() !== undefined;
  }

  orphansInProgress(jobKind: string): number[] {
    return this.sql<[string], { id: number }>(
      `SELECT id FROM files WHERE status = 'in_progress'
       AND NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ? AND state IN ('pending','running') AND json_extract(CASE WHEN json_valid(payload) THEN payload END, '$.fileId') = files.id)`,
    )
      .all(jobKind)
      .map((r) => r.id);
  }

  linkedFileIds(agentId: number): number[] {
    return this.sql<[number], { file_id: number }>('SELECT file_id FROM agent_files WHERE agent_id = ? ORDER BY created_at, file_id')
      .all(agentId)
      .map((r) => r.file_id);
  }

  linkedRows(agentId: number): FileRow[] {
    return this.sql<[number], FileRow>('SELECT f.* FROM agent_files a JOIN files f ON f.id = a.file_id WHERE a.agent_id = ? ORDER BY a.created_at, f.id').all(agentId);
  }

  link(agentId: number, fileId: number, now: number): void {
    this.sql('INSERT OR IGNORE INTO agent_files(agent_id, file_id, created_at) VALUES (?, ?, ?)').run(agentId, fileId, now);
  }

  unlink(agentId: number, fileId: number): boolean {
    return this.sql('DELETE FROM agent_files WHERE agent_id = ? AND file_id = ?').run(agentId, fileId).changes > 0;
  }

  passageCount(fileId: number): number {
    return this.passages.count(fileId);
  }

  passagePage(fileId: number, limit: number, offset: number): { ordinal: number; text: string }[] {
    return this.passages.page(fileId, limit, offset);
  }

  /** Deletes up to 200 passages of a file; returns how many went. */
  purgeSome(fileId: number): number {
    return this.passages.purgeSome(fileId, 200);
  }
}
