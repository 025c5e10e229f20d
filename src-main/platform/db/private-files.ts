import fs from 'node:fs';

/**
 * The data dir holds secrets (sealed keys, or plain ones where no keychain exists) and the user's
 * documents: it is the user's alone whatever the umask says. On Windows, where POSIX modes do
 * not exist, the per-user app-data folder's ACL already does this.
 */
const hasModes = process.platform !== 'win32';
const uid = typeof process.getuid === 'function' ? process.getuid() : null;

/** Tightens a file or folder to `mode` when it exists, is ours and grants more; never touches another user's. */
export function tighten(target: string, mode: number): void {
  if (!hasModes) return;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(target);
  } catch {
    return;
  }
  if (st.isSymbolicLink() || (uid !== null && st.uid !== uid)) return;
  if ((st.mode & 0o777 & ~mode) === 0) return;
  try {
    fs.chmodSync(target, mode);
  } catch {}
}

/** Creates the data dir 0700, or tightens it to 0700 when it exists and is ours. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
}

/** A database's file and its WAL and shared-memory files, 0600 (SQLite creates the last two with the first's mode). */
export function tightenDatabaseFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) tighten(f, 0o600);
}
