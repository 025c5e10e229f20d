import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../api/helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook, deliveriesSettled, fastPlatform, finishExecution, waitForDelivery, webhookOf } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const receivers: Receiver[] = [];
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts the child platform and resolves on each line it prints. */
function child(dataDir: string, url: string, mode: string) {
  const c = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'fixtures/crash-child.ts'), dataDir, url, mode], {
    env: { ...process.env, AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '40,40,40,40', AGENT_DESK_WEBHOOK_TIMEOUT_MS: '5000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(c);
  let out = '';
  c.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  const line = (text: string, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const end = Date.now() + timeoutMs;
      const check = () => (out.includes(text) ? resolve() : Date.now() > end ? reject(new Error(`child never printed ${text}: ${out}`)) : setTimeout(check, 5));
      check();
    });
  const killed = () => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once('exit', () => r())));
  return { c, line, killed };
}

describe('webhook deliveries survive restarts', () => {
  it('a retry scheduled before a clean restart still arrives, once', async () => {
    const rx = await startReceiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
    receivers.push(rx);
    const dir = tempDir();
    dirs.push(dir);
    const env = { AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '1200' };
    const a = fastPlatform(env, dir);
    const hook = await createWebhook(a, rx.url);
    finishExecution(a);
    await waitForDelivery(a, hook.id, (d) => d.attempt === 1);
    await a.close();
    expect(rx.received).toHaveLength(1);

    const b = fastPlatform(env, dir);
    try {
      const [first, second] = await rx.waitFor(2, 10_000);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      const d = await waitForDelivery(b, hook.id, (x) => x.status === 'succeeded');
      expect(d.attempts.map((x: any) => x.status_code)).toEqual([500, 200]);
      const w = await webhookOf(b, hook.id);
      expect([w.success_count, w.failure_count]).toEqual([1, 1]);
    } finally {
      await b.close();
    }
    // And a third start sends nothing more.
    const c = fastPlatform(env, dir);
    await deliveriesSettled(c);
    await c.close();
    expect(rx.received).toHaveLength(2);
  });

  it('kill -9 during an attempt: the delivery is sent again after restart and succeeds once', async () => {
    let answered = 0;
    const rx = await startReceiver((n) => (n === 0 ? 'hang' : (answered++, { status: 200 })));
    receivers.push(rx);
    const dir = tempDir();
    dirs.push(dir);
    const ch = child(dir, rx.url, 'in-flight');
    await ch.line('EMITTED');
    await rx.waitFor(1);
    ch.c.kill('SIGKILL');
    await ch.killed();

    const p = fastPlatform({}, dir);
    try {
      const [first, second] = await rx.waitFor(2, 10_000);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      const hookId = (p.db.prepare('SELECT id FROM webhooks ORDER BY id DESC LIMIT 1').get() as { id: number }).id;
      const d = await waitForDelivery(p, hookId, (x) => x.status === 'succeeded');
      expect(d.attempt).toBe(1); // the attempt cut off by the kill left no record and no count
      const w = await webhookOf(p, hookId);
      expect([w.success_count, w.failure_count]).toEqual([1, 0]);
      await deliveriesSettled(p);
      expect(answered).toBe(1);
      expect(rx.received).toHaveLength(2);
    } finally {
      await p.close();
    }
  });

  it('kill -9 after a recorded 2xx: nothing is sent again', async () => {
    const rx = await startReceiver(() => ({ status: 200 }));
    receivers.push(rx);
    const dir = tempDir();
    dirs.push(dir);
    const ch = child(dir, rx.url, 'after-success');
    await ch.line('RECORDED');
    ch.c.kill('SIGKILL');
    await ch.killed();
    expect(rx.received).toHaveLength(1);

    const p = fastPlatform({}, dir);
    try {
      await deliveriesSettled(p);
      expect(rx.received).toHaveLength(1);
      const hookId = (p.db.prepare('SELECT id FROM webhooks ORDER BY id DESC LIMIT 1').get() as { id: number }).id;
      const w = await webhookOf(p, hookId);
      expect([w.success_count, w.failure_count]).toEqual([1, 0]);
      expect(p.db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'webhook.delivery'").get()).toEqual({ n: 0 });
    } finally {
      await p.close();
    }
  });
});
