import { afterAll, afterEach } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { receiverPool } from './receiver.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { until } from '../fixtures/until.js';
import { DELIVERY_JOB } from '../../src-main/platform/modules/webhooks/delivery.js';

/**
 * Retries in milliseconds, never minutes. The timeout stays generous so that a busy machine does
 * not turn a slow 200 into a timeout and a retry; the timeout tests set their own short one.
 */
export const FAST = { AGENT_DESK_WEBHOOK_TIMEOUT_MS: '5000', AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '40,40,40,40' };

export function fastPlatform(env: Record<string, string> = {}, dataDir?: string) {
  // Never pass `dataDir: undefined`: it would override the helper's temp dir with the user's real data dir.
  return makePlatform({ ...(dataDir ? { dataDir } : {}), env: { ...process.env, ...FAST, ...env } });
}

/**
 * A delivery suite's set-up: one fast platform for the file (closed after it) and receivers
 * that are closed after each test.
 */
export function deliverySuite() {
  const pool = receiverPool();
  const p = fastPlatform();
  afterEach(() => pool.closeAll());
  afterAll(() => closePlatform(p));
  return { p, receiver: pool.receiver };
}

/** Creates a webhook on agent 1 through the API; returns its id and secret. */
export async function createWebhook(p: Platform, url: string, status: 'active' | 'inactive' = 'active', agentId = 1) {
  const r = await call(p, 'POST', `/api/agents/${agentId}/webhooks`, { body: { url, method: 'POST', status } });
  if (r.status !== 201) throw new Error(`webhook create failed: ${r.status} ${r.text}`);
  return { id: r.json.id as number, secret: r.json.secret as string };
}

let nextExecution = 1000;
/** What the execution service will emit when an execution ends (until then, tests emit it directly). */
export function finishExecution(p: Platform, opts: { agentId?: number; type?: 'execution.succeeded' | 'execution.failed'; output?: string } = {}) {
  const id = nextExecution++;
  const execution = {
    id,
    status: opts.type === 'execution.failed' ? 'failed' : 'succeeded',
    input: `question ${id}`,
    output: opts.output ?? `answer ${id}`,
    error: opts.type === 'execution.failed' ? { message: 'boom', code: 'model_error' } : null,
    credits: 1,
    root_id: id,
    created_at: '2026-01-01T00:00:00.000000Z',
    updated_at: '2026-01-01T00:00:01.000000Z',
    template_id: opts.agentId ?? 1,
  };
  p.events.emit('execution.finished', { type: opts.type ?? 'execution.succeeded', userId: 1, agentId: opts.agentId ?? 1, execution });
  return execution;
}

export async function webhookOf(p: Platform, id: number) {
  const r = await call(p, 'GET', '/api/webhooks?per_page=100');
  return r.json.data.find((w: any) => w.id === id);
}

export async function deliveriesOf(p: Platform, id: number, query = '') {
  const r = await call(p, 'GET', `/api/webhooks/${id}/deliveries${query}`);
  if (r.status !== 200) throw new Error(`deliveries: ${r.status} ${r.text}`);
  return r.json;
}

/** Polls the delivery log until the newest delivery matches (retries run on timers). */
export async function waitForDelivery(p: Platform, webhookId: number, done: (d: any) => boolean, timeoutMs = 10_000) {
  let last: unknown;
  try {
    return await until(
      'the delivery to settle',
      async () => {
        const d = (await deliveriesOf(p, webhookId)).data[0];
        last = d;
        return d && done(d) ? d : null;
      },
      timeoutMs,
      20,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; newest delivery: ${JSON.stringify(last)}`);
  }
}

/**
 * Resolves once nothing more can reach a receiver, without waiting a fixed time: no job is due or
 * running (so every attempt made has been answered), and no delivery waits for a later retry:
 * of the given webhooks, or of any when none are given. What the receivers got is then final.
 */
export async function deliveriesSettled(p: Platform, webhookIds?: number[]): Promise<void> {
  await p.jobs.idle();
  if (!webhookIds) {
    const { n } = p.db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = ? AND state = 'pending'").get(DELIVERY_JOB) as { n: number };
    if (n) throw new Error(`${n} webhook deliveries still wait for a retry`);
    return;
  }
  for (const id of webhookIds) {
    const waiting = (await deliveriesOf(p, id)).data.filter((d: { status: string }) => d.status === 'pending');
    if (waiting.length) throw new Error(`webhook ${id}: ${waiting.length} deliveries still wait for a retry`);
  }
}
