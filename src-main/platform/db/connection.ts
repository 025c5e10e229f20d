import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export type DB = Database.Database;

/**
 * Opens the platform database in WAL mode. synchronous=NORMAL: every committed write survives a
 * crash or `kill -9` of the process (it is in the WAL, handed to the OS), and the database can
 * never be corrupted; only a power cut can roll back the last moments of writes. FULL (an fsync
 * per commit, ~1-6 ms each here) is one setting away: AGENT_DESK_DB_SYNC=full.
 */
export function openDatabase(dataDir: string, sync: 'normal' | 'full' = process.env.AGENT_DESK_DB_SYNC === 'full' ? 'full' : 'normal'): DB {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Runs `fn` in one IMMEDIATE transaction (a write lock from the start, so no upgrade deadlocks). */
export function tx<T>(db: DB, fn: () => T): T {
  return db.transaction(fn).immediate();
}
