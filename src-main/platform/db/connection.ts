import Database from 'better-sqlite3';
import path from 'node:path';
import { checkSqliteBinding } from './sqlite-binding.js';
import { checkDatabaseFile, describeOpenFailure } from './database-file.js';
import { ensurePrivateDir, tightenDatabaseFiles } from './private-files.js';

export type DB = Database.Database;
export { StartupError, SqliteBindingError } from './sqlite-binding.js';
export { DatabaseFileError } from './database-file.js';

export const DATABASE_FILE = 'agent-desk.sqlite';

/**
 * Opens the platform database in WAL mode. synchronous=NORMAL: every committed write survives a
 * crash or `kill -9` of the process (it is in the WAL, handed to the OS), and the database can
 * never be corrupted; only a power cut can roll back the last moments of writes. FULL (an fsync
 * per commit, ~1-6 ms each here) is one setting away: AGENT_DESK_DB_SYNC=full.
 *
 * Before that: the SQLite addon must load, and the file
 * must be a whole SQLite database; either failure is a StartupError with one sentence.
 * The data dir is the user's alone (0700) and the database files 0600: they hold secrets.
 */
export function openDatabase(dataDir: string, sync: 'normal' | 'full' = process.env.AGENT_DESK_DB_SYNC === 'full' ? 'full' : 'normal'): DB {
  checkSqliteBinding();
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, DATABASE_FILE);
  checkDatabaseFile(file);
  let db: DB | null = null;
  try {
    db = new Database(file);
    // Before WAL mode makes its files: SQLite gives them the database file's mode.
    tightenDatabaseFiles(file);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Reads the schema, so a damaged first page or a read-only file shows here rather than mid-request.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    // A write probe: SQLite opens a read-only file read-only without a word, and the first answer would fail instead.
    db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
    return db;
  } catch (err) {
    db?.close();
    throw describeOpenFailure(err, file);
  }
}

/** Runs `fn` in one IMMEDIATE transaction (a write lock from the start, so no upgrade deadlocks). */
export function tx<T>(db: DB, fn: () => T): T {
  return db.transaction(fn).immediate();
}
