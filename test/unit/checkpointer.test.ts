import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { startCheckpointer, START_AT_PAGES, waitingAutoPages } from '../../src-main/platform/db/checkpointer.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { tempDir } from '../api/helpers.js';
import { until } from '../fixtures/until.js';
import type { IdleClock } from '../../src-main/platform/kernel/idle-end.js';

/** A clock that moves only when told (the idle end's timers). */
function fakeClock() {
  let now = 0;
  let id = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    set: (fn: () => void, ms: number) => (timers.set(++id, { at: now + ms, fn }), id),
    clear: (h: unknown) => void timers.delete(h as number),
    advance(ms: number) {
      now += ms;
      for (const [k, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at > now || !timers.has(k)) continue;
        timers.delete(k);
        t.fn();
      }
    },
  } satisfies IdleClock & { advance(ms: number): void };
}

/** Worker threads of this process named `checkpointer` (Linux /proc). */
const checkpointThreads = () =>
  fs.readdirSync('/proc/self/task').filter((t) => {
    try {
      return fs.readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() === 'checkpointer';
    } catch {
      return false;
    }
  }).length;

const log = createLogger('silent');
const open: DB[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function database(): { db: DB; file: string } {
  const dir = tempDir('agent-desk-checkpoint-');
  dirs.push(dir);
  const db = openDatabase(dir);
  open.push(db);
  db.exec('CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)');
  return { db, file: db.name };
}

/** About `mb` MB of incompressible rows, in small commits like the platform's. */
function write(db: DB, mb: number): void {
  const ins = db.prepare('INSERT INTO blobs(data) VALUES (?)');
  for (let i = 0; i < mb * 16; i++) db.transaction(() => ins.run(Buffer.alloc(64 * 1024, i % 251)))();
}

const autoPages = (db: DB) => db.pragma('wal_autocheckpoint', { simple: true }) as number;

describe('WAL checkpoints run in a thread, not in the commits of the main connection', () => {
  it('turns the automatic checkpoint off once the thread runs, and the thread moves the WAL into the database file', async () => {
    const { db, file } = database();
    const cp = startCheckpointer(db, log, { everyMs: 20 });
    await until('the checkpoint thread to be ready', () => cp.state === 'active');
    expect(autoPages(db)).toBe(0);
    const before = fs.statSync(file).size;
    write(db, 6);
    // Nothing on the main connection copies pages any more: the file grows only by the thread's checkpoints.
    await until('the database file to hold the rows', () => fs.statSync(file).size >= before + 6 * 1024 * 1024);
    await cp.stop();
    expect(cp.state).toBe('stopped');
    expect(autoPages(db)).toBe(1000);
    expect((db.prepare('SELECT count(*) AS n FROM blobs').get() as { n: number }).n).toBe(96);
  });

  it('without the thread, the automatic checkpoint stays on (a WAL never grows without bound)', async () => {
    const { db, file } = database();
    // The thread opens the file by name: gone, it fails to start, and the main connection keeps its checkpoints.
    fs.rmSync(file);
    const cp = startCheckpointer(db, log, { everyMs: 20 });
    await until('the thread to have failed', () => cp.state === 'failed');
    expect(autoPages(db)).toBe(1000);
    write(db, 1);
    await cp.stop();
  });

  it.runIf(process.platform === 'linux')('ends its thread once the WAL has not changed for the idle period (automatic checkpoint back on) and starts it again on the next write', async () => {
    const { db } = database();
    const clock = fakeClock();
    const before = checkpointThreads();
    const cp = startCheckpointer(db, log, { everyMs: 20, watchEveryMs: 20, idleMs: 60_000, clock });
    try {
      await until('the checkpoint thread to be ready', () => cp.state === 'active');
      expect(checkpointThreads()).toBe(before + 1);
      clock.advance(59_000);
      expect(cp.state).toBe('active');
      clock.advance(1_000);
      expect(cp.state).toBe('waiting');
      expect(autoPages(db)).toBe(1000);
      await until('the checkpoint thread to end', () => checkpointThreads() === before);

      write(db, 1);
      await until('a thread to run again after a write', () => cp.state === 'active');
      expect(autoPages(db)).toBe(0);
      expect(checkpointThreads()).toBe(before + 1);
    } finally {
      await cp.stop();
    }
    expect(autoPages(db)).toBe(1000);
  });
});

describe('the checkpoint thread costs little, and only once the WAL holds a few MB', () => {
  it('a burst of writes under the start threshold starts no thread and no checkpoint on the main connection; past it, the thread takes over', async () => {
    const { db, file } = database();
    db.pragma('wal_checkpoint(TRUNCATE)');
    const cp = startCheckpointer(db, log, { startAtPages: START_AT_PAGES, watchEveryMs: 10, everyMs: 20 });
    try {
      expect(cp.state).toBe('waiting');
      // Past what a thousand mixed requests write (~2 MB), and past SQLite's own 1,000 pages: the
      // main connection's commits do not checkpoint (the database file keeps its size) before the thread could start.
      expect(START_AT_PAGES * 4096).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      expect(autoPages(db)).toBe(waitingAutoPages(START_AT_PAGES));
      const before = fs.statSync(file).size;
      write(db, 5);
      expect(fs.statSync(file).size).toBe(before);
      await until('the checkpoint thread to take over', () => cp.state === 'active');
      expect(autoPages(db)).toBe(0);
      await until('the thread to move the WAL into the database file', () => fs.statSync(file).size >= before + 5 * 1024 * 1024);
    } finally {
      await cp.stop();
    }
    expect(autoPages(db)).toBe(1000);
  });

  it('waiting and stopped without starting, the automatic checkpoint is back at 1,000 pages', async () => {
    const { db } = database();
    const cp = startCheckpointer(db, log, { startAtPages: START_AT_PAGES });
    expect(autoPages(db)).toBeGreaterThan(1000);
    await cp.stop();
    expect(autoPages(db)).toBe(1000);
  });

  it('the thread runs with a 1 MB young generation and a small heap (V8’s default young generation grew to ~8 MB of it over a minute)', async () => {
    const { db } = database();
    const cp = startCheckpointer(db, log, { everyMs: 20 });
    try {
      await until('the checkpoint thread to be ready', () => cp.state === 'active');
      write(db, 2);
      const h = (await cp.threadHeap())!;
      expect(h.youngMb).toBe(1);
      expect(h.used).toBeGreaterThan(0);
      expect(h.total).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await cp.stop();
    }
  });
});
