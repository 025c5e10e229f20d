/**
 * Durability (CONTRACT.md "Running headless": nothing committed is lost, also on kill -9):
 * kill -9 the real server in the middle of a burst of memory creates over HTTP; after a
 * restart every create that was answered 200 is there, by id and content.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { startServer, type ServerProcess } from './server-process.js';
import { limit } from '../fixtures/until.js';

const TOTAL = 1000;
const CONCURRENCY = 16;
const KEY = 'crash-test-key-0123456789';

describe('crash safety', () => {
  const dir = tempDir('agent-desk-crash-');
  const servers: ServerProcess[] = [];
  afterAll(() => {
    servers.forEach((s) => s.kill());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('kill -9 mid-burst loses no answered create; the database is intact', async () => {
    const s = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY }, runner: 'node' });
    servers.push(s);
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
    // Kill somewhere in the middle, at a point that differs from run to run.
    const killAt = 200 + Math.floor(Math.random() * 400);
    const answered = new Map<number, string>();
    let next = 0;
    let failures = 0;
    let killed = false;

    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        const memory = `crash note ${i} ${'·'.repeat(i % 50)} ✓`;
        try {
          const res = await fetch(`${s.url}/api/memories`, { method: 'POST', headers, body: JSON.stringify({ memory }) });
          const body = (await res.json()) as any;
          expect(res.status).toBe(200);
          expect(body.memory.memory).toBe(memory);
          answered.set(body.memory.id, memory);
        } catch (err) {
          if (!killed) throw err;
          failures++;
        }
        if (!killed && answered.size >= killAt) {
          killed = true;
          s.child.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(await s.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(killed).toBe(true);
    expect(answered.size).toBeGreaterThanOrEqual(killAt);
    expect(answered.size).toBeLessThan(TOTAL);
    expect(failures).toBeGreaterThan(0);

    // Straight after the crash: SQLite recovers the WAL; the file is sound.
    const db = new Database(path.join(dir, 'agent-desk.sqlite'));
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      const stored = db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number };
      expect(stored.n).toBeGreaterThanOrEqual(answered.size);
      // The trigger-kept counter agrees with the rows (list totals stay right after a crash).
      const counted = db.prepare('SELECT coalesce(sum(n), 0) AS n FROM memory_counts').get() as { n: number };
      expect(counted.n).toBe(stored.n);
    } finally {
      db.close();
    }

    // Restart on the same data dir: every answered create is served, by id and content.
    const again = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY }, runner: 'node' });
    servers.push(again);
    const served = new Map<number, string>();
    let total = 0;
    for (let page = 1; ; page++) {
      const res = await fetch(`${again.url}/api/memories?per_page=50&page=${page}`, { headers });
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      total = body.meta.total;
      for (const m of body.memories) served.set(m.id, m.memory);
      if (page >= body.meta.last_page) break;
    }
    expect(served.size).toBe(total);
    for (const [id, memory] of answered) expect(served.get(id), `memory ${id}`).toBe(memory);
    // And the server still takes writes.
    const res = await fetch(`${again.url}/api/memories`, { method: 'POST', headers, body: JSON.stringify({ memory: 'after the crash' }) });
    expect(res.status).toBe(200);
    again.child.kill('SIGTERM');
    expect((await again.exited).code).toBe(0);
  }, limit(120_000)); // two server starts and a thousand requests
});
