import type { DB } from '../../db/connection.js';
import type { ModelDownload } from '../../contract/models.js';

export type DownloadStatus = ModelDownload['status'];

export interface DownloadRow {
  id: number;
  url: string;
  file: string;
  sha256: string | null;
  bytes: number;
  total: number | null;
  status: DownloadStatus;
  error: string | null;
  created_at: number;
  updated_at: number;
}

/** All SQL of model downloads (table `model_downloads`, migration 006), statements prepared once. */
export class DownloadsStore {
  private readonly s;

  constructor(private readonly db: DB) {
    this.s = {
      insert: db.prepare<[string, string, string | null, number, number]>(
        `INSERT INTO model_downloads (url, file, sha256, status, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?)`,
      ),
      get: db.prepare<[number]>('SELECT * FROM model_downloads WHERE id = ?'),
      byFile: db.prepare<[string]>('SELECT * FROM model_downloads WHERE file = ?'),
      list: db.prepare('SELECT * FROM model_downloads ORDER BY id DESC'),
      unfinished: db.prepare(`SELECT * FROM model_downloads WHERE status IN ('queued','downloading','verifying') ORDER BY id`),
      status: db.prepare<[DownloadStatus, string | null, number, number]>('UPDATE model_downloads SET status = ?, error = ?, updated_at = ? WHERE id = ?'),
      progress: db.prepare<[number, number | null, number, number]>('UPDATE model_downloads SET bytes = ?, total = ?, updated_at = ? WHERE id = ?'),
      expected: db.prepare<[string, number, number]>('UPDATE model_downloads SET sha256 = ?, updated_at = ? WHERE id = ? AND sha256 IS NULL'),
      remove: db.prepare<[number]>('DELETE FROM model_downloads WHERE id = ?'),
    };
  }

  get open(): boolean {
    return this.db.open;
  }

  insert(url: string, file: string, sha256: string | null, now: number): DownloadRow {
    const id = Number(this.s.insert.run(url, file, sha256, now, now).lastInsertRowid);
    return this.get(id)!;
  }

  get(id: number): DownloadRow | null {
    return (this.s.get.get(id) as DownloadRow | undefined) ?? null;
  }

  byFile(file: string): DownloadRow | null {
    return (this.s.byFile.get(file) as DownloadRow | undefined) ?? null;
  }

  list(): DownloadRow[] {
    return this.s.list.all() as DownloadRow[];
  }

  unfinished(): DownloadRow[] {
    return this.s.unfinished.all() as DownloadRow[];
  }

  setStatus(id: number, status: DownloadStatus, error: string | null, now: number): void {
    this.s.status.run(status, error, now, id);
  }

  setProgress(id: number, bytes: number, total: number | null, now: number): void {
    this.s.progress.run(bytes, total, now, id);
  }

  /** The hub's own checksum, when the user gave none. */
  setExpected(id: number, sha256: string, now: number): void {
    this.s.expected.run(sha256, now, id);
  }

  remove(id: number): void {
    this.s.remove.run(id);
  }
}
