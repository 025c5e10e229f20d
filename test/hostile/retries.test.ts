import fs from 'node:fs';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { JobQueue } from '../../src-main/platform/jobs/queue.js';
import { tempDir } from '../api/helpers.js';
import { until } from '../fixtures/until.js';

const log = pino({ level: 'silent' });
const open: { db: DB; q: JobQueue; dir: string }[] = [];
afterEach(async () => {
  for (const { db, q, dir } of open.splice(0)) {
    await q.stop();
    if (db.open) db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** A queue on a fresh database with injected wall and monotonic clocks. */
function queue(dir = tempDir(), clocks: { wall: number; mono: number } = { wall: 1_700_000_000_000, mono: 0 }) {
  const db = openDatabase(dir);
  migrate(db);
  const q = new JobQueue(db, log, () => clocks.wall, () => clocks.mono);
  open.push({ db, q, dir });
  return { db, q, dir, clocks };
}


describe('retries and attempts', () => {
  it('a retry is due after its backoff on the monotonic clock, even when the wall clock moved back an hour', async () => {
    const { q, clocks } = queue();
    let calls = 0;
    q.register('flaky', async () => {
      calls++;
      if (calls === 1) throw new Error('receiver down');
    }, { maxAttempts: 3, backoffMs: () => 30_000 });
    q.start();
    q.enqueue('flaky', {});
    await until('the first attempt', () => calls === 1);
    // The wall clock jumps back one hour; 30 s pass on the monotonic clock.
    clocks.wall -= 3_600_000;
    clocks.mono += 30_001;
    q.wake();
    await until('the retry', () => calls === 2);
  });

  it('an attempt interrupted by the death of its process is not charged', async () => {
    const dir = tempDir();
    const first = queue(dir);
    first.q.register('delivery', () => new Promise<void>(() => {}), { maxAttempts: 2 });
    first.q.start();
    const id = first.q.enqueue('delivery', {});
    const row = () => first.db.prepare<[number], { state: string; attempts: number }>('SELECT state, attempts FROM jobs WHERE id = ?').get(id)!;
    await until('the claim', () => row().state === 'running');
    expect(row().attempts).toBe(1);
    // kill -9: the process stops with the job claimed.
    first.q.halt();
    first.db.close();

    const second = queue(dir);
    let runs = 0;
    second.q.register('delivery', async () => {
      runs++;
      if (runs === 1) throw new Error('receiver answered 500');
    }, { maxAttempts: 2, backoffMs: () => 0 });
    second.q.start();
    // With the interrupted attempt charged, the failure below would have been the last of 2.
    await until('a retry after the first real failure', () => runs === 2);
    const done = second.db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM jobs WHERE id = ?');
    await until('the job to finish', () => done.get(id)!.n === 0);
  });
});
