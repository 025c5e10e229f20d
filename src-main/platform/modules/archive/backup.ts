import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_FILE, connect, type DB } from '../../db/connection.js';
import { tarEnd, tarEntry, tarHeader, tarPadding } from './tar.js';
import { fsyncFile } from '../../kernel/fsync.js';
import { fileIds } from './store.js';

export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');

/** `2026-11-21T09-30-00-123Z`: sortable, and legal in file names on every OS. */
export const stamp = (d = new Date()) => d.toISOString().replace(/[:.]/g, '-');

/**
 * A consistent copy of the open database (VACUUM INTO reads one snapshot, so concurrent writers
 * cannot tear it), written by temp name and renamed.
 */
export function vacuumInto(db: DB, dest: string): void {
  const tmp = `${dest}.part`;
  fs.rmSync(tmp, { force: true });
  db.prepare('VACUUM INTO ?').run(tmp);
  fsyncFile(tmp);
  fs.renameSync(tmp, dest);
}

/** Keeps the newest `keep` files whose names start with `prefix`; deletes the rest. */
export function pruneBackups(dir: string, prefix: string, keep: number): string[] {
  if (!fs.existsSync(dir)) return [];
  // Oldest first by the timestamp in the name (after `before-v<N>-`), whatever the version.
  const time = (f: string) => f.replace(/^before-v\d+-/, '');
  const byTime = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.sqlite'))
    .sort((a, b) => time(a).localeCompare(time(b)));
  const drop = byTime.slice(0, Math.max(0, byTime.length - keep));
  for (const f of drop) fs.rmSync(path.join(dir, f), { force: true });
  return drop;
}

/**
 * The automatic backup before a migration (wired to migrate()'s beforeMigrate hook):
 * `<dataDir>/backups/before-v<target>-<time>.sqlite` holds the database as it was, at its old
 * schema, so an upgrade that goes wrong can be undone. The last `keep` are kept.
 */
export function snapshotBeforeMigrate(db: DB, dataDir: string, targetVersion: number, opts: { keep?: number; now?: Date } = {}): string {
  const dir = backupsDir(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `before-v${targetVersion}-${stamp(opts.now)}.sqlite`);
  vacuumInto(db, file);
  pruneBackups(dir, 'before-v', opts.keep ?? 5);
  return file;
}

export interface BackupResult {
  out: string;
  files: number;
  /** Ids whose bytes were deleted between the snapshot and the copy (their rows are in the snapshot). */
  missing: number[];
  bytes: number;
  schemaVersion: number;
}

/**
 * `npm run backup`: one tar with a consistent copy of the database and the bytes of every file
 * that copy knows. Safe while the app or `serve` runs (a read snapshot; no writes to the source).
 */
export function backupDataDir(opts: { dataDir: string; out?: string; now?: Date }): BackupResult {
  const dataDir = path.resolve(opts.dataDir);
  const source = path.join(dataDir, DATABASE_FILE);
  if (!fs.existsSync(source)) throw new Error(`No Agent Desk database in ${dataDir} (expected ${DATABASE_FILE}).`);
  const out = path.resolve(opts.out ?? path.join(backupsDir(dataDir), `agent-desk-${stamp(opts.now)}.tar`));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const snapshot = `${out}.sqlite.part`;
  const tmpOut = `${out}.part`;
  const db = connect(source, { readonly: true });
  try {
    fs.rmSync(snapshot, { force: true });
    db.prepare('VACUUM INTO ?').run(snapshot);
  } finally {
    db.close();
  }
  try {
    const snap = connect(snapshot, { readonly: true });
    let ids: number[];
    let schemaVersion: number;
    try {
      schemaVersion = snap.pragma('user_version', { simple: true }) as number;
      ids = fileIds(snap);
    } finally {
      snap.close();
    }
    const fd = fs.openSync(tmpOut, 'w', 0o600);
    const missing: number[] = [];
    let count = 0;
    try {
      const write = (b: Buffer) => fs.writeSync(fd, b);
      appendFile(fd, DATABASE_FILE, snapshot);
      for (const id of ids) {
        const src = path.join(dataDir, 'files', String(id));
        if (!fs.existsSync(src)) {
          missing.push(id);
          continue;
        }
        appendFile(fd, `files/${id}`, src);
        count++;
      }
      const manifest = { format: 'agent-desk-backup', version: 1, created_at: (opts.now ?? new Date()).toISOString(), schema_version: schemaVersion, files: count, missing };
      write(tarEntry('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2))));
      write(tarEnd());
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmpOut, out);
    return { out, files: count, missing, bytes: fs.statSync(out).size, schemaVersion };
  } catch (err) {
    fs.rmSync(tmpOut, { force: true });
    throw err;
  } finally {
    fs.rmSync(snapshot, { force: true });
  }
}

/** Appends one file from disk as a tar entry; the open descriptor keeps its bytes even if it is deleted meanwhile. */
function appendFile(fd: number, name: string, src: string): void {
  const input = fs.openSync(src, 'r');
  try {
    const size = fs.fstatSync(input).size;
    fs.writeSync(fd, tarHeader(name, size));
    const chunk = Buffer.alloc(1024 * 1024);
    let done = 0;
    while (done < size) {
      const n = fs.readSync(input, chunk, 0, Math.min(chunk.length, size - done), done);
      if (n <= 0) throw new Error(`${src} shrank while it was being backed up`);
      fs.writeSync(fd, chunk, 0, n);
      done += n;
    }
    fs.writeSync(fd, tarPadding(size));
  } finally {
    fs.closeSync(input);
  }
}
