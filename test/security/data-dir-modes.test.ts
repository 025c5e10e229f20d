/**
 * The data dir holds secrets and the user's documents: it is created 0700 (and tightened when it
 * exists and is ours), and the database with its WAL and shared memory, the lock file and stored
 * file bytes are 0600, whatever the process umask lets through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { upload } from '../files/helpers.js';

const parents: string[] = [];
afterAll(() => {
  for (const d of parents) fs.rmSync(d, { recursive: true, force: true });
});

const modeOf = (f: string) => fs.statSync(f).mode & 0o777;
const octal = (m: number) => `0${m.toString(8)}`;

/** Every mode in the data dir that grants more than its owner: [] when all are private. */
function loose(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of fs.readdirSync(d)) {
      const f = path.join(d, name);
      const st = fs.lstatSync(f);
      if (st.isDirectory()) walk(f);
      if (st.isFile() && (st.mode & 0o077) !== 0) out.push(`${path.relative(dir, f)} ${octal(st.mode & 0o777)}`);
    }
  };
  walk(dir);
  return out;
}

async function writeSomething(p: ReturnType<typeof makePlatform>) {
  const made = await call(p, 'POST', '/api/memories', { body: { memory: 'a private note' } });
  expect(made.status).toBe(200);
  const up = await upload(p, 'note.txt', 'secret document');
  expect(up.status).toBeLessThan(300);
  return up.json.id as number;
}

describe('files on disk', () => {
  it('the data dir is 0700 and the database 0600 (WAL, shared memory, lock and file bytes too)', async () => {
    const parent = tempDir('agent-desk-modes-');
    parents.push(parent);
    fs.chmodSync(parent, 0o755);
    const dir = path.join(parent, 'Agent Desk');
    const p = makePlatform({ dataDir: dir });
    try {
      const fileId = await writeSomething(p);
      expect(octal(modeOf(dir))).toBe('0700');
      for (const f of ['agent-desk.sqlite', 'agent-desk.sqlite-wal', 'agent-desk.sqlite-shm', 'agent-desk.lock', `files/${fileId}`]) {
        expect(octal(modeOf(path.join(dir, f))), f).toBe('0600');
      }
      expect(loose(dir)).toEqual([]);
    } finally {
      await p.close();
    }
  });

  it('an existing data dir of ours that others could read is tightened, with its database files', async () => {
    const parent = tempDir('agent-desk-modes-');
    parents.push(parent);
    const dir = path.join(parent, 'data');
    const first = makePlatform({ dataDir: dir });
    await writeSomething(first);
    await first.close();
    // As an older version (or the umask) left it.
    fs.chmodSync(dir, 0o755);
    for (const f of fs.readdirSync(dir)) if (f.startsWith('agent-desk.')) fs.chmodSync(path.join(dir, f), 0o644);
    const again = makePlatform({ dataDir: dir });
    try {
      expect((await call(again, 'GET', '/api/memories')).status).toBe(200);
      expect(octal(modeOf(dir))).toBe('0700');
      for (const f of fs.readdirSync(dir).filter((x) => x.startsWith('agent-desk.'))) expect(octal(modeOf(path.join(dir, f))), f).toBe('0600');
    } finally {
      await again.close();
    }
  });
});
