/**
 * Backups: an automatic VACUUM INTO copy before each migration (the last few kept), and
 * `npm run backup`: a consistent database copy plus every stored file, taken while writes go on.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';
import { latestVersion, migrate } from '../../src-main/platform/db/migrate.js';
import { backupDataDir, snapshotBeforeMigrate } from '../../src-main/platform/modules/archive/backup.js';
import { indexTar, readEntry } from '../../src-main/platform/modules/archive/tar.js';
import { runCli, upload } from './data-safety-helpers.js';
import { limit, until } from '../fixtures/until.js';

const dirs: string[] = [];
const dir = (prefix = 'agent-desk-backup-') => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const backupsOf = (dataDir: string) => (fs.existsSync(path.join(dataDir, 'backups')) ? fs.readdirSync(path.join(dataDir, 'backups')).sort() : []);

describe('automatic backup before a migration', () => {
  it('an old database gets before-v<N>-<time>.sqlite holding its old schema and rows; a current one gets none', async () => {
    const dataDir = dir();
    const old = openDatabase(dataDir);
    migrate(old, { target: 1 });
    old.exec("INSERT INTO users(id, name, created_at) VALUES (1, 'Me', 0); INSERT INTO settings(key, value, updated_at) VALUES ('marker', '\"kept\"', 0)");
    old.close();

    const p = makePlatform({ dataDir, env: {} });
    await p.close();
    const made = backupsOf(dataDir);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(new RegExp(`^before-v${latestVersion()}-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z\\.sqlite$`));
    const copy = new Database(path.join(dataDir, 'backups', made[0]), { readonly: true });
    try {
      expect(copy.pragma('user_version', { simple: true })).toBe(1);
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare("SELECT value FROM settings WHERE key = 'marker'").get()).toEqual({ value: '"kept"' });
    } finally {
      copy.close();
    }
    // Up to date now: opening again backs up nothing.
    const again = makePlatform({ dataDir, env: {} });
    await again.close();
    expect(backupsOf(dataDir)).toEqual(made);
  });

  it('a brand-new data dir is not backed up (nothing to lose)', async () => {
    const dataDir = dir();
    const p = makePlatform({ dataDir, env: {} });
    await p.close();
    expect(backupsOf(dataDir)).toEqual([]);
  });

  it('keeps the newest five', () => {
    const dataDir = dir();
    const db = openDatabase(dataDir);
    try {
      migrate(db, { target: 1 });
      for (let i = 0; i < 7; i++) snapshotBeforeMigrate(db, dataDir, 2 + (i % 2), { now: new Date(Date.UTC(2026, 0, 1 + i)) });
    } finally {
      db.close();
    }
    const kept = backupsOf(dataDir);
    expect(kept).toHaveLength(5);
    expect(kept.map((f) => f.replace(/^before-v\d+-/, '').slice(0, 10)).sort()).toEqual(['2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07']);
  });
});

describe('npm run backup', () => {
  it('is consistent while writes go on: the copy has integrity, every memory acknowledged before it, and every file its row names', async () => {
    const p = makePlatform({ env: {} });
    dirs.push(p.dir);
    try {
      for (let i = 0; i < 5; i++) expect((await upload(p, `f${i}.txt`, Buffer.from(`file ${i} `.repeat(100)))).status).toBe(200);
      const acked: string[] = [];
      let stop = false;
      // Writers run while the backup reads.
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          const r = await call(p, 'POST', '/api/memories', { body: { memory: `during backup ${i}` } });
          if (r.status === 200) acked.push(`during backup ${i}`);
          await new Promise((res) => setImmediate(res));
        }
      })();
      await until('writes acknowledged before the backup', () => acked.length >= 5);
      const ackedBefore = [...acked];
      const out = path.join(dir(), 'b.tar');
      const res = backupDataDir({ dataDir: p.dir, out });
      stop = true;
      await writer;
      expect(res.files).toBe(5);
      expect(res.missing).toEqual([]);

      const fd = fs.openSync(out, 'r');
      try {
        const entries = indexTar(fd, fs.statSync(out).size, { maxEntries: 100 });
        const names = entries.map((e) => e.name);
        expect(names).toContain('agent-desk.sqlite');
        expect(names).toContain('manifest.json');
        const restoreDir = dir();
        fs.writeFileSync(path.join(restoreDir, 'agent-desk.sqlite'), readEntry(fd, entries.find((e) => e.name === 'agent-desk.sqlite')!));
        const copy = new Database(path.join(restoreDir, 'agent-desk.sqlite'), { readonly: true });
        try {
          expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
          const memories = new Set((copy.prepare('SELECT memory FROM memories').all() as { memory: string }[]).map((m) => m.memory));
          for (const m of ackedBefore) expect(memories.has(m), m).toBe(true);
          for (const f of copy.prepare('SELECT id, sha256 FROM files').all() as { id: number; sha256: string }[]) {
            const e = entries.find((x) => x.name === `files/${f.id}`);
            expect(e, `bytes of file ${f.id}`).toBeDefined();
            expect(crypto.createHash('sha256').update(readEntry(fd, e!)).digest('hex')).toBe(f.sha256);
          }
        } finally {
          copy.close();
        }
        // Restore: the extracted archive is a data dir the platform opens as it was.
        for (const e of entries.filter((x) => x.name.startsWith('files/'))) {
          fs.mkdirSync(path.join(restoreDir, 'files'), { recursive: true });
          fs.writeFileSync(path.join(restoreDir, e.name), readEntry(fd, e));
        }
        const restored = makePlatform({ dataDir: restoreDir, env: {} });
        try {
          const listed = await call(restored, 'GET', '/api/files?per_page=100');
          expect(listed.json.data).toHaveLength(5);
          expect((await call(restored, 'GET', '/api/memories?q=during')).json.meta.total).toBeGreaterThanOrEqual(ackedBefore.length);
          expect(restored.db.pragma('journal_mode', { simple: true })).toBe('wal');
        } finally {
          await restored.close();
        }
      } finally {
        fs.closeSync(fd);
      }
    } finally {
      await p.close();
    }
  });

  it('the CLI writes the backup, by default under <data dir>/backups, and says where', async () => {
    const p = makePlatform({ env: {} });
    dirs.push(p.dir);
    await call(p, 'POST', '/api/memories', { body: { memory: 'cli backup' } });
    await p.close();
    const r = runCli('src-main/platform/cli/backup.ts', ['backup', '--data-dir', p.dir]);
    expect(r.status, r.stderr).toBe(0);
    const made = backupsOf(p.dir).filter((f) => f.endsWith('.tar'));
    expect(made).toHaveLength(1);
    expect(r.stdout).toContain(path.join(p.dir, 'backups', made[0]));
    const bad = runCli('src-main/platform/cli/backup.ts', ['backup', '--data-dir', path.join(p.dir, 'nope')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/No Agent Desk database/);
  }, limit(180_000)); // two CLI processes, each a cold start of the platform
});
