/**
 * The terminal record of an execution and its `execution.finished` fan-out (webhook events and
 * deliveries) commit in one transaction: a fan-out exists iff the execution ended succeeded/failed,
 * whatever crashes or throws in between.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, poll, withFake } from './helpers.js';
import { makePlatform, tempDir } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { limit } from '../fixtures/until.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Executions that ended succeeded/failed vs. executions a webhook event was recorded for. */
function fanOutMatchesTerminal(p: Platform) {
  const terminal = (p.db.prepare("SELECT id FROM executions WHERE status IN ('succeeded','failed') ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  const bodies = p.db.prepare("SELECT body FROM webhook_events WHERE type LIKE 'execution.%'").all() as { body: string }[];
  const evented = bodies.map((b) => JSON.parse(b.body).data.id as number).sort((a, b) => a - b);
  return { terminal, evented };
}

describe('execution.finished is emitted inside the terminal transaction', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  const seen: { inTransaction: boolean; statusOnConnection: string; deliveries: number }[] = [];
  beforeAll(async () => {
    // Deliveries go to a closed port with long retry delays: the rows stay put while we look.
    env = await withFake({ reply: 'ok then', delayMs: 2 }, { AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '600000' });
    const hook = await call(env.p, 'POST', `/api/agents/${CHAT}/webhooks`, { body: { url: 'http://127.0.0.1:9/hook', method: 'POST', status: 'active' } });
    expect(hook.status).toBe(201);
    const db = env.p.db;
    env.p.events.on('execution.finished', (e) => {
      const row = db.prepare('SELECT status FROM executions WHERE id = ?').get(e.execution.id) as { status: string };
      const n = (db.prepare("SELECT count(*) AS n FROM webhook_events WHERE body LIKE ?").get(`%"id":${e.execution.id},%`) as { n: number }).n;
      seen.push({ inTransaction: db.inTransaction, statusOnConnection: row.status, deliveries: n });
    });
    // A listener that writes, then throws: its write is rolled back alone (its own savepoint).
    env.p.events.on('execution.finished', (e) => {
      db.prepare("INSERT INTO webhook_events(message_id, type, body, created_at) VALUES (?, 'test.marker', '{}', 0)").run(`marker-${e.execution.id}`);
      throw new Error('a broken listener');
    });
  });
  afterAll(async () => env?.close());

  it('a listener sees the terminal record and the fan-out in the same open transaction; one that throws rolls back nothing else', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('hello'), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const mine = seen.at(-1)!;
    expect(mine).toEqual({ inTransaction: true, statusOnConnection: 'succeeded', deliveries: 1 });
    // The throwing listener did not undo the terminal record nor the delivery service's rows...
    expect((await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json).toMatchObject({ status: 'succeeded', output: 'ok then' });
    expect(fanOutMatchesTerminal(env.p).evented).toContain(e.id);
    // ...and its own write was rolled back.
    expect(env.p.db.prepare("SELECT count(*) AS n FROM webhook_events WHERE type = 'test.marker'").get()).toEqual({ n: 0 });
  });

  it('failed executions fan out too; running and canceled ones do not; recover() fans out what it fails', async () => {
    const failed = (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x', { model: 'claude-sonnet-4-5' }), wait_execution: true } })).json.responses[0];
    expect(failed.status).toBe('failed');
    env.fake.set({ reply: Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '), delayMs: 20 });
    const slow = (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('slow') })).json.responses[0];
    await poll(env.p, slow.id, (x) => x.status === 'running' && x.output.length > 0);
    // While it runs: not terminal, no event.
    expect(fanOutMatchesTerminal(env.p).evented).not.toContain(slow.id);
    expect((await call(env.p, 'POST', `/api/agent-responses/${slow.id}/cancel`)).json.status).toBe('canceled');
    env.fake.set({ reply: 'ok then', delayMs: 2 });
    // A row a dead process left running: recover() fails it and fans it out in one go.
    const now = Date.now() * 1000;
    const orphan = Number(
      env.p.db.prepare("INSERT INTO executions(agent_id, user_id, root_id, status, input, output, credits, created_at, updated_at) VALUES (1, 1, NULL, 'running', 'q', 'partial', 0.01, ?, ?)").run(now, now).lastInsertRowid,
    );
    expect(env.p.services.executions.recover()).toBe(1);
    expect((await call(env.p, 'GET', `/api/agent-responses/${orphan}`)).json).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    const { terminal, evented } = fanOutMatchesTerminal(env.p);
    expect(terminal).toContain(failed.id);
    expect(terminal).toContain(orphan);
    expect(evented).toEqual(terminal);
  });
});

describe('a crash inside the fan-out loses neither half', () => {
  it('kill -9 between the terminal write and the commit: nothing committed; the restart fails the execution and fans it out', async () => {
    const dir = tempDir();
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'fixtures/crash-in-fanout.ts'), dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (c) => (out += c));
      child.stderr.on('data', (c) => (err += c));
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
      expect(signal, `child output: ${out} ${err}`).toBe('SIGKILL');
      // The fan-out ran inside the open transaction, its rows written but not committed.
      expect(out).toContain('in-transaction=true deliveries=1');
      const id = Number(/execution=(\d+)/.exec(out)?.[1]);
      expect(id).toBeGreaterThan(0);

      const p = makePlatform({ dataDir: dir, env: { AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '600000' } });
      try {
        // Start-up recovery found it unfinished (the succeeded record was never committed)...
        const e = (await call(p, 'GET', `/api/agent-responses/${id}`)).json;
        expect(e).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
        // ...and fanned it out exactly once, with the failed record.
        const { terminal, evented } = fanOutMatchesTerminal(p);
        expect(terminal).toEqual([id]);
        expect(evented).toEqual([id]);
        const body = JSON.parse((p.db.prepare('SELECT body FROM webhook_events').get() as { body: string }).body);
        expect(body).toMatchObject({ type: 'execution.failed', data: { id, status: 'failed' } });
      } finally {
        await p.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, limit(60_000));
});
