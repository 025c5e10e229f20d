import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { openDatabase, DatabaseFileError, DATABASE_FILE } from '../../src-main/platform/db/connection.js';
import { newestBackup } from '../../src-main/platform/db/database-file.js';
import { limit } from '../fixtures/until.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) {
    spawnSync('chmod', ['-R', 'u+w', d]);
    fs.rmSync(d, { recursive: true, force: true });
  }
});

/** A data dir holding a real database with some rows, and (optionally) two backups, the second newer. */
function dataDir(opts: { backups?: boolean } = {}) {
  const dir = tempDir('agent-desk-dbfile-');
  dirs.push(dir);
  const db = openDatabase(dir);
  db.exec('CREATE TABLE t(x TEXT); ');
  const ins = db.prepare('INSERT INTO t VALUES (?)');
  for (let i = 0; i < 400; i++) ins.run('x'.repeat(200));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  let newest: string | null = null;
  if (opts.backups) {
    const b = path.join(dir, 'backups');
    fs.mkdirSync(b);
    fs.writeFileSync(path.join(b, 'before-v3-2026-11-01T00-00-00-000Z.sqlite'), 'old');
    fs.utimesSync(path.join(b, 'before-v3-2026-11-01T00-00-00-000Z.sqlite'), new Date('2026-11-01'), new Date('2026-11-01'));
    newest = path.join(b, 'agent-desk-2026-11-20T00-00-00-000Z.tar');
    fs.writeFileSync(newest, 'newer');
    fs.utimesSync(newest, new Date('2026-11-20'), new Date('2026-11-20'));
  }
  return { dir, file: path.join(dir, DATABASE_FILE), newest };
}

function openError(dir: string): DatabaseFileError {
  try {
    openDatabase(dir).close();
  } catch (err) {
    expect(err).toBeInstanceOf(DatabaseFileError);
    return err as DatabaseFileError;
  }
  throw new Error('expected the database to be refused');
}

describe('database start-up errors: one sentence naming the file and the newest backup', () => {
  it('finds the newest backup by time, whatever its kind', () => {
    const { dir, newest } = dataDir({ backups: true });
    expect(newestBackup(dir)).toBe(newest);
  });

  it('a 0-byte database is refused, not silently reset', () => {
    const { dir, file, newest } = dataDir({ backups: true });
    fs.truncateSync(file, 0);
    const err = openError(dir);
    expect(err.message).toBe(
      `Agent Desk cannot open its database ${file}: it is empty (0 bytes), so its data is gone, and it is not reset silently; restore the newest backup, ${newest} (copy a .sqlite backup over the file, or \`npm run import\` a .tar), or move the file away to start afresh.`,
    );
    expect(fs.statSync(file).size).toBe(0); // untouched
  });

  it('a truncated database is refused with its size and the header page count', () => {
    const { dir, file, newest } = dataDir({ backups: true });
    const size = fs.statSync(file).size;
    fs.truncateSync(file, Math.floor(size / 2));
    const err = openError(dir);
    expect(err.message).toMatch(new RegExp(`^Agent Desk cannot open its database ${file.replace(/[.\\/]/g, '\\$&')}: it is truncated \\(\\d+ bytes where its header says \\d+ pages of 4096 bytes\\); restore the newest backup, `));
    expect(err.backup).toBe(newest);
    expect(err.message.split('\n')).toHaveLength(1);
  });

  it('a checkpoint cut short (page 1 written, the file not yet extended, the WAL still whole) opens with every row', () => {
    const { dir, file } = dataDir();
    const db = openDatabase(dir);
    db.pragma('wal_autocheckpoint = 0');
    const ins = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 400; i++) ins.run('y'.repeat(200));
    // The files as they are before the close's own checkpoint: the main file short, the rows in the WAL.
    const main = fs.readFileSync(file);
    const keep = fs.readFileSync(`${file}-wal`);
    db.close();
    fs.writeFileSync(file, main);
    fs.writeFileSync(`${file}-wal`, keep);
    // What a checkpoint writes first: the newest page 1 from the WAL (its header counts the grown file).
    const pageSize = 4096;
    const frame = 24 + pageSize;
    let page1: Buffer | null = null;
    for (let off = 32; off + frame <= keep.length; off += frame) if (keep.readUInt32BE(off) === 1) page1 = keep.subarray(off + 24, off + frame);
    expect(page1).not.toBeNull();
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, page1!, 0, pageSize, 0);
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeLessThan(page1!.readUInt32BE(28) * pageSize);
    const again = openDatabase(dir);
    try {
      expect(again.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 800 });
      expect(again.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      again.close();
    }
  });

  it('garbage is refused, and without backups the sentence says where they would be', () => {
    const { dir, file } = dataDir();
    fs.writeFileSync(file, Buffer.alloc(8192, 7));
    const err = openError(dir);
    expect(err.message).toBe(`Agent Desk cannot open its database ${file}: it is not an SQLite database (its header is garbage); no backup exists under ${path.join(dir, 'backups')}: move the file away to start afresh.`);
  });

  it('a damaged page behind a valid header is reported as damaged, not as a stack', () => {
    const { dir, file } = dataDir();
    const fd = fs.openSync(file, 'r+');
    // Page 1 keeps the header; the schema table's b-tree page header right after it is wrecked.
    fs.writeSync(fd, Buffer.alloc(200, 0xff), 0, 200, 100);
    fs.closeSync(fd);
    const err = openError(dir);
    expect(err.message).toMatch(/: it is damaged \(.*(malformed|not a database).*\); no backup exists under .*: move the file away to start afresh\.$/);
  });

  it('a read-only database is refused at start, naming the file (run as an unprivileged user: root may write anything)', () => {
    const { dir, file } = dataDir({ backups: true });
    fs.chmodSync(file, 0o444);
    fs.chmodSync(dir, 0o555);
    const script = `
      import { openDatabase } from ${JSON.stringify(path.resolve('src-main/platform/db/connection.ts'))};
      try { openDatabase(${JSON.stringify(dir)}); console.log('OPENED'); } catch (e) { console.log(e.name + ': ' + e.message); }
    `;
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const r = spawnSync(asUser.uid ? nodeForOthers() : process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: process.cwd(), env: { ...process.env, HOME: dir }, timeout: limit(60_000), ...asUser });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toMatch(new RegExp(`^DatabaseFileError: Agent Desk cannot open its database ${file.replace(/[.\\/]/g, '\\$&')}: it cannot be written \\(.+\\); make the file and its folder writable by you \\(or move the data dir with AGENT_DESK_DATA_DIR\\); else restore the newest backup, `));
  });

  /** This Node, runnable by another user: a Node installed under root's home (~/.node24) is not, so a copy is made. */
  function nodeForOthers(): string {
    const reachable = (p: string): boolean => {
      const parent = path.dirname(p);
      return parent === p || ((fs.statSync(parent).mode & 0o001) !== 0 && reachable(parent));
    };
    if (reachable(process.execPath) && (fs.statSync(process.execPath).mode & 0o001) !== 0) return process.execPath;
    const dir = tempDir('agent-desk-node-');
    dirs.push(dir);
    fs.chmodSync(dir, 0o755);
    const copy = path.join(dir, 'node');
    fs.copyFileSync(process.execPath, copy);
    fs.chmodSync(copy, 0o755);
    return copy;
  }

  it('a missing database is a first start, and a healthy one opens', () => {
    const dir = tempDir('agent-desk-dbfile-');
    dirs.push(dir);
    openDatabase(dir).close();
    openDatabase(dir).close();
  });
});
