import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import pino from 'pino';
import { openDatabase, type DB } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { JobQueue } from '../../src-main/platform/jobs/queue.js';
import { tempDir } from '../api/helpers.js';

// The queue's laneLimit mode, which webhook delivery relies on (the default strict lanes are unchanged).
const log = pino({ level: 'silent' });
const open: { db: DB; q: JobQueue; dir: string }[] = [];
function queue() {
  const dir = tempDir();
  const db = openDatabase(dir);
  migrate(db);
  const q = new JobQueue(db, log);
  open.push({ db, q, dir });
  return { db, q };
}
afterEach(async () => {
  for (const { db, q, dir } of open.splice(0)) {
    await q.stop();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('JobQueue laneLimit', () => {
  it('runs at most laneLimit jobs of a lane at once, oldest first, and other lanes beside it', async () => {
    const { q } = queue();
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    q.register<{ n: string }>(
      't',
      async (job) => {
        started.push(job.payload.n);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => release.push(r));
        running--;
      },
      { concurrency: 10, laneLimit: 3 },
    );
    for (let i = 0; i < 8; i++) q.enqueue('t', { n: `a${i}` }, { lane: 'A' });
    q.enqueue('t', { n: 'b0' }, { lane: 'B' });
    q.start();
    await tick(50);
    // A's backlog takes only 3 slots: B's job, queued after it, runs at once.
    expect(started).toEqual(['a0', 'a1', 'a2', 'b0']);
    while (started.length < 9) {
      release.shift()?.();
      await tick();
    }
    for (const r of release.splice(0)) r();
    await q.idle(5_000);
    expect(started).toEqual(['a0', 'a1', 'a2', 'b0', 'a3', 'a4', 'a5', 'a6', 'a7']);
    expect(most).toBeLessThanOrEqual(4);
  });

  it('a job waiting for its retry does not hold up its lane', async () => {
    const { q } = queue();
    const seen: string[] = [];
    q.register<{ n: string }>(
      't',
      async (job) => {
        seen.push(`${job.payload.n}#${job.attempts}`);
        if (job.payload.n === 'first' && job.attempts === 1) throw new Error('down');
      },
      { concurrency: 4, laneLimit: 1, maxAttempts: 2, backoffMs: () => 150 },
    );
    q.enqueue('t', { n: 'first' }, { lane: 'A' });
    q.enqueue('t', { n: 'second' }, { lane: 'A' });
    q.start();
    await tick(80);
    expect(seen).toEqual(['first#1', 'second#1']);
    await tick(200);
    await q.idle(5_000);
    expect(seen).toEqual(['first#1', 'second#1', 'first#2']);
  });

  it('takes the limit from a function of the lane', async () => {
    const { q } = queue();
    const seen: string[] = [];
    const release: (() => void)[] = [];
    q.register<{ n: string }>(
      't',
      async (job) => {
        seen.push(job.payload.n);
        await new Promise<void>((r) => release.push(r));
      },
      { concurrency: 10, laneLimit: (lane) => (lane === 'slow' ? 1 : 4) },
    );
    for (let i = 0; i < 3; i++) q.enqueue('t', { n: `s${i}` }, { lane: 'slow' });
    for (let i = 0; i < 3; i++) q.enqueue('t', { n: `f${i}` }, { lane: 'fast' });
    q.start();
    await tick(50);
    expect(seen).toEqual(['s0', 'f0', 'f1', 'f2']);
    while (seen.length < 6) {
      for (const r of release.splice(0)) r();
      await tick();
    }
    for (const r of release.splice(0)) r();
    await q.idle(5_000);
    expect(seen.filter((n) => n.startsWith('s'))).toEqual(['s0', 's1', 's2']);
  });

  it('finishes jobs done in the same tick in one transaction, and a commit that throws fails only its job', async () => {
    const { q, db } = queue();
    q.register<{ n: number }>(
      't',
      async (job) => () => {
        db.prepare('INSERT INTO settings(key, value, updated_at) VALUES (?, ?, 0)').run(`k${job.payload.n}`, '1');
        if (job.payload.n === 2) throw new Error('commit failed');
      },
      { concurrency: 5, maxAttempts: 1 },
    );
    for (let n = 0; n < 5; n++) q.enqueue('t', { n });
    q.start();
    await q.idle(5_000);
    const keys = db.prepare<[], { key: string }>("SELECT key FROM settings WHERE key LIKE 'k%' ORDER BY key").all().map((r) => r.key);
    expect(keys).toEqual(['k0', 'k1', 'k3', 'k4']);
    const jobs = db.prepare<[], { state: string; last_error: string; payload: string }>('SELECT state, last_error, payload FROM jobs').all();
    expect(jobs).toEqual([{ state: 'failed', last_error: 'commit failed', payload: '{"n":2}' }]);
  });
});
