import Database from 'better-sqlite3';
import { sqliteOptions } from './sqlite-binding.js';
import path from 'node:path';

export interface DataDirLock {
  /** true for the one process that owns the data dir's background work. */
  readonly primary: boolean;
  release(): void;
}

/**
 * Decides which process owns a data dir's background work (job queue, start-up recovery, temp
 * file clean-up). The desktop app, `npm run serve`, `npm run keys` and `npm run mcp` may open
 * the same data dir at once; only the first runs that work, the others only read and write
 * rows. The lock is an EXCLUSIVE transaction held on a small SQLite file: the OS drops it when
 * the holder exits, also on `kill -9`, so a crash never leaves a stale lock (unlike a pid file).
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const db = new Database(path.join(dataDir, 'agent-desk.lock'), sqliteOptions());
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
    return { primary: false, release() {} };
  }
  let held = true;
  return {
    primary: true,
    release() {
      if (!held) return;
      held = false;
      try {
        db.exec('ROLLBACK');
      } catch {}
      db.close();
    },
  };
}
