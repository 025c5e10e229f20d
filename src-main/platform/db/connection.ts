import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export type DB = Database.Database;

/** Opens the platform database in WAL mode; synchronous=FULL so an answered write survives `kill -9` and power loss. */
export function openDatabase(dataDir: string): DB {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Runs `fn` in one IMMEDIATE transaction (a write lock from the start, so no upgrade deadlocks). */
export function tx<T>(db: DB, fn: () => T): T {
  return db.transaction(fn).immediate();
}
