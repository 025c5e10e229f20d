import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { acquireDataDirLock } from '../../src-main/platform/db/data-dir-lock.js';
import { makePlatform, tempDir } from '../api/helpers.js';
import { call, chatBody, poll, withFake } from '../execution/helpers.js';
import { limit } from '../fixtures/until.js';

const dirs: string[] = [];
const dir = () => {
  const d = tempDir('agent-desk-lock-');
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A child process that takes the lock, says so, and holds it until killed. */
function holder(dataDir: string): Promise<ReturnType<typeof spawn>> {
  const code = `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))});const db=new D(${JSON.stringify(`${dataDir}/agent-desk.lock`)});db.pragma('busy_timeout = 0');db.exec('BEGIN EXCLUSIVE');console.log('held');setInterval(()=>{},1000);`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (c) => reject(new Error(`holder exited ${c}`)));
  });
}

describe('data dir lock: one process owns the background work', () => {
  it('the first opener is primary; a second one is not, and never releases the first', () => {
    const d = dir();
    const a = acquireDataDirLock(d);
    const b = acquireDataDirLock(d);
    expect(a.primary).toBe(true);
    expect(b.primary).toBe(false);
    b.release();
    expect(acquireDataDirLock(d).primary).toBe(false);
    a.release();
    const c = acquireDataDirLock(d);
    expect(c.primary).toBe(true);
    c.release();
  });

  it('another process holding the data dir makes us secondary; its kill -9 frees the lock', async () => {
    const d = dir();
    const child = await holder(d);
    try {
      expect(acquireDataDirLock(d).primary).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    const after = acquireDataDirLock(d);
    expect(after.primary).toBe(true);
    after.release();
  });

  it("a secondary platform leaves the primary's running jobs and executions alone", async () => {
    const d = dir();
    const primary = makePlatform({ dataDir: d });
    expect(primary.primary).toBe(true);
    await primary.jobs.stop(); // keep the row below from being picked up by the primary itself
    const now = Date.now();
    const jobId = Number(
      primary.db
        .prepare("INSERT INTO jobs(kind, payload, state, attempts, max_attempts, run_at, created_at, updated_at) VALUES ('file.process', '{}', 'running', 1, 3, ?, ?, ?)")
        .run(now, now, now).lastInsertRowid,
    );
    const secondary = makePlatform({ dataDir: d });
    try {
      expect(secondary.primary).toBe(false);
      const row = secondary.db.prepare('SELECT state FROM jobs WHERE id = ?').get(jobId) as { state: string };
      expect(row.state).toBe('running');
      // The secondary still serves requests on the shared data.
      const created = await secondary.app.request('http://127.0.0.1:8787/api/memories', {
        method: 'POST',
        headers: { host: '127.0.0.1', authorization: 'Bearer test-key-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ memory: 'written by the second process' }),
      });
      expect(created.status).toBe(200);
    } finally {
      await secondary.close();
      await primary.close();
    }
    const last = acquireDataDirLock(d);
    expect(last.primary).toBe(true);
    last.release();
  });

  it("closing a secondary never fails the primary's running executions", async () => {
    const { p: primary, fake, close } = await withFake({ reply: 'slow answer in many small words for the lock test', delayMs: 60 });
    try {
      const started = await call(primary, 'POST', '/api/agents/1/execute', { body: chatBody('Take your time') });
      const id = started.json.responses[0].id;
      await poll(primary, id, (e) => e.status === 'running');
      const secondary = makePlatform({ dataDir: primary.dir, env: primary.config.env });
      expect(secondary.primary).toBe(false);
      await secondary.close();
      // The stored row, not the live view: an over-eager recovery would have failed it there.
      const stored = primary.db.prepare('SELECT status, error_code FROM executions WHERE id = ?').get(id) as { status: string };
      expect(stored.status).not.toBe('failed');
      const done = await poll(primary, id, (e) => e.status !== 'running', 20_000);
      expect(done.status).toBe('succeeded');
      expect(done.output).toBe('slow answer in many small words for the lock test');
    } finally {
      await close();
      await fake.close().catch(() => {});
    }
  }, limit(30_000));
});
