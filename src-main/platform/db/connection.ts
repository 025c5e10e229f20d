import Database from 'better-sqlite3';
import path from 'node:path';
import { describeBindingFailure } from './sqlite-binding.js';
import { checkDatabaseFile, describeOpenFailure } from './database-file.js';
import { ensurePrivateDir, tightenDatabaseFiles } from './private-files.js';
import { countWrites } from './write-count.js';

export type DB = Database.Database;
export { StartupError, SqliteBindingError } from './sqlite-binding.js';
export { DatabaseFileError } from './database-file.js';

export const DATABASE_FILE = 'agent-desk.sqlite';

/**
 * The one set of pragmas every connection to the platform database gets, in every process and
 * thread (the platform, the fast progress connection, readers, the import and checkpoint threads,
 * the CLI): WAL; synchronous=NORMAL, so every committed write survives a crash or `kill -9` of
 * the process (it is in the WAL, handed to the OS) and the file is never corrupted, only a power
 * cut can roll back the last moments of writes (FULL, an fsync per commit of ~1-6 ms here, is one
 * setting away: AGENT_DESK_DB_SYNC=full); foreign keys enforced; a writer waits up to 5 s for the
 * lock rather than failing at once.
 */
export const BUSY_TIMEOUT_MS = 5000;
export type Durability = 'normal' | 'full';
export const defaultDurability = (): Durability => (process.env.AGENT_DESK_DB_SYNC === 'full' ? 'full' : 'normal');

export interface ConnectOptions {
  /** Opens without writing anything (a backup's snapshot, an export, reading old secrets). */
  readonly?: boolean;
  /** Durability of commits; only the progress connection asks for `normal` whatever the setting (its writes are re-done by the final one). */
  sync?: Durability;
  /** Creates the file when missing (only openDatabase, after checking it). */
  create?: boolean;
}

/** Every connection to a database file goes through here. */
export function connect(file: string, opts: ConnectOptions = {}): DB {
  const db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: !opts.create });
  // Before any statement: caches of hot reads see this connection's writes by this count (write-count.ts).
  countWrites(db);
  try {
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma(`synchronous = ${(opts.sync ?? defaultDurability()) === 'full' ? 'FULL' : 'NORMAL'}`);
    }
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The data-dir lock's own small file (no tables): an EXCLUSIVE transaction held on it is the lock,
 * so it must never wait for the lock (busy_timeout 0). Not a connection to the platform database.
 */
export function openLockFile(file: string): DB {
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  return db;
}

/** Opens an in-memory database once, so an addon that cannot load stops start-up with a sentence. */
export function checkSqliteBinding(opts: { fix?: string; open?: () => void } = {}): void {
  try {
    (opts.open ?? (() => new Database(':memory:').close()))();
  } catch (err) {
    throw describeBindingFailure(err, opts);
  }
}

/**
 * Opens (or creates) the platform database of a data dir with the pragmas above. Before that:
 * the SQLite addon must load, and the file must be a whole SQLite database; either failure is a
 * StartupError with one sentence. The data dir is the user's alone (0700) and the database files
 * 0600: they hold secrets.
 */
export function openDatabase(dataDir: string, sync: Durability = defaultDurability()): DB {
  checkSqliteBinding();
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, DATABASE_FILE);
  checkDatabaseFile(file);
  tightenDatabaseFiles(file);
  let db: DB | null = null;
  try {
    db = connect(file, { sync, create: true });
    // A new file and its WAL files were made with the umask's mode.
    tightenDatabaseFiles(file);
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
