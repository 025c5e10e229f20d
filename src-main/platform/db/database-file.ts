import fs from 'node:fs';
import path from 'node:path';
import { StartupError } from './sqlite-binding.js';

/** A database file that cannot be used as it is: one sentence naming it and the newest backup. */
export class DatabaseFileError extends StartupError {
  constructor(
    message: string,
    readonly file: string,
    readonly backup: string | null,
  ) {
    super(message);
    this.name = 'DatabaseFileError';
  }
}

/** The newest file under `<data dir>/backups` (automatic pre-migration copies and `npm run backup` tars), or null. */
export function newestBackup(dataDir: string): string | null {
  const dir = path.join(dataDir, 'backups');
  let best: { file: string; mtime: number } | null = null;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!/\.(sqlite|tar)$/.test(name)) continue;
      const file = path.join(dir, name);
      const st = fs.statSync(file);
      if (st.isFile() && st.size > 0 && (!best || st.mtimeMs > best.mtime)) best = { file, mtime: st.mtimeMs };
    }
  } catch {}
  return best?.file ?? null;
}

/** `remedy` is what to do first when the file itself is fine (e.g. permissions); else the backup or a fresh start. */
function fail(file: string, problem: string, remedy?: string): DatabaseFileError {
  const backup = newestBackup(path.dirname(file));
  const fresh = 'move the file away to start afresh';
  const way = backup
    ? `restore the newest backup, ${backup} (copy a .sqlite backup over the file, or \`npm run import\` a .tar), or ${fresh}`
    : `no backup exists under ${path.join(path.dirname(file), 'backups')}: ${fresh}`;
  return new DatabaseFileError(`Agent Desk cannot open its database ${file}: ${problem}; ${remedy ? `${remedy}; else ` : ''}${way}.`, file, backup);
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Checks the file before SQLite sees it, because SQLite would quietly make a 0-byte file a new,
 * empty database (the user's data silently gone) and reads a truncated one until it hits the
 * missing pages. A missing file is fine: that is a first start.
 */
export function checkDatabaseFile(file: string): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return;
  }
  if (!st.isFile()) throw fail(file, 'it is not a file');
  let wal = 0;
  try {
    wal = fs.statSync(`${file}-wal`).size;
  } catch {}
  if (st.size === 0) {
    // A WAL beside an empty main file is SQLite's to recover; an empty file alone was never ours.
    if (wal === 0) throw fail(file, 'it is empty (0 bytes), so its data is gone, and it is not reset silently');
    return;
  }
  const fd = fs.openSync(file, 'r');
  const head = Buffer.alloc(100);
  let n: number;
  try {
    n = fs.readSync(fd, head, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (n < 100 || head.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw fail(file, 'it is not an SQLite database (its header is garbage)');
  const rawPage = head.readUInt16BE(16);
  const pageSize = rawPage === 1 ? 65536 : rawPage;
  // The page count in the header is valid when its "version-valid-for" matches the change counter.
  // With a WAL beside, the main file may be shorter than its header says: a checkpoint writes page 1
  // first and extends the file after, and one that was cut short (a process killed, a reader's
  // automatic checkpoint) leaves every page still in the WAL, which SQLite reads from.
  const pages = head.readUInt32BE(28);
  const valid = head.readUInt32BE(92) === head.readUInt32BE(24);
  if (valid && wal === 0 && pages > 0 && st.size < pages * pageSize) {
    throw fail(file, `it is truncated (${st.size} bytes where its header says ${pages} pages of ${pageSize} bytes)`);
  }
}

/** Maps what SQLite says while opening and migrating to the same kind of sentence; other errors pass through. */
export function describeOpenFailure(err: unknown, file: string): unknown {
  if (err instanceof StartupError) return err;
  const code = (err as { code?: string }).code ?? '';
  const text = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_PERM' || /readonly/i.test(text)) {
    return fail(file, `it cannot be written (${text})`, 'make the file and its folder writable by you (or move the data dir with AGENT_DESK_DATA_DIR)');
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return fail(file, `it is damaged (${text})`);
  }
  return err;
}
