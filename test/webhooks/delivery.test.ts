import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call } from '../api/helpers.js';
import { until } from '../fixtures/until.js';
import { closedPort } from './receiver.js';
import { createWebhook, deliverySuite, fastPlatform, deliveriesOf, deliveriesSettled, finishExecution, waitForDelivery, webhookOf } from './helpers.js';

describe('webhook delivery', () => {
  const { p, receiver } = deliverySuite();

  it('delivers execution.succeeded to a good receiver, signed per Standard Webhooks', async () => {
    const rx = await receiver();
    const hook = await createWebhook(p, rx.url);
    const execution = finishExecution(p);
    const [got] = await rx.waitFor(1);
    // The standardwebhooks package is the judge of the signature.
    const payload = new StandardWebhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as any;
    expect(payload.type).toBe('execution.succeeded');
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(payload.data).toEqual(execution);
    expect(payload.data.input).toBe(execution.input);
    expect(got.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{24}$/);
    expect(got.headers['user-agent']).toBe('AgentDesk-Webhooks/1.0');
    expect(got.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    // A tampered body fails the same verification (the check above can fail).
    expect(() => new StandardWebhook(hook.secret).verify(got.body.replace('answer', 'ANSWER'), got.headers as Record<string, string>)).toThrow();

    await p.jobs.idle();
    const w = await webhookOf(p, hook.id);
    expect([w.success_count, w.failure_count]).toEqual([1, 0]);
    const log = await deliveriesOf(p, hook.id);
    expect(log.total).toBe(1);
    expect(log.data[0]).toMatchObject({
      webhook_id: hook.id,
      event_type: 'execution.succeeded',
      message_id: got.headers['webhook-id'],
      status: 'succeeded',
      attempt: 1,
      status_code: 200,
      error: null,
      next_attempt_at: null,
    });
    expect(log.data[0].attempts).toHaveLength(1);
    expect(log.data[0].attempts[0]).toMatchObject({ attempt: 1, status_code: 200, response_body: 'ok', error: null });
    expect(log.data[0].latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('delivers execution.failed too, with the error in data', async () => {
    const rx = await receiver();
    const hook = await createWebhook(p, rx.url);
    finishExecution(p, { type: 'execution.failed' });
    const [got] = await rx.waitFor(1);
    const payload = new StandardWebhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as any;
    expect(payload.type).toBe('execution.failed');
    expect(payload.data.error).toEqual({ message: 'boom', code: 'model_error' });
  });

  it('retries a 500 and succeeds on the next attempt, with the same webhook-id', async () => {
    const rx = await receiver((n) => (n === 0 ? { status: 500, body: 'down' } : { status: 200, body: 'fine' }));
    const hook = await createWebhook(p, rx.url);
    finishExecution(p);
    const [a, b] = await rx.waitFor(2);
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body);
    const verifier = new StandardWebhook(hook.secret);
    expect(() => verifier.verify(a.body, a.headers as Record<string, string>)).not.toThrow();
    expect(() => verifier.verify(b.body, b.headers as Record<string, string>)).not.toThrow();
    await p.jobs.idle();
    const w = await webhookOf(p, hook.id);
    expect([w.success_count, w.failure_count]).toEqual([1, 1]);
    const d = (await deliveriesOf(p, hook.id)).data[0];
    expect(d).toMatchObject({ status: 'succeeded', attempt: 2, status_code: 200, error: null });
    expect(d.attempts.map((x: any) => [x.attempt, x.status_code, x.error, x.response_body])).toEqual([
      [1, 500, 'HTTP 500', 'down'],
      [2, 200, null, 'fine'],
    ]);
    await deliveriesSettled(p, [hook.id]);
    expect(rx.received).toHaveLength(2); // nothing more after the success
  });

  it('signs a retry with the secret current at send time (after a rotation)', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '600000' });
    try {
      const rx = await receiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
      const hook = await createWebhook(q, rx.url);
      finishExecution(q);
      const d = await waitForDelivery(q, hook.id, (x) => x.attempt === 1);
      const rotated = await call(q, 'PATCH', `/api/webhooks/${hook.id}`, { body: { rotate_secret: true } });
      expect(rotated.json.secret).not.toBe(hook.secret);
      await call(q, 'POST', `/api/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
      const [first, second] = await rx.waitFor(2);
      expect(() => new StandardWebhook(hook.secret).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
      expect(() => new StandardWebhook(rotated.json.secret).verify(second.body, second.headers as Record<string, string>)).not.toThrow();
      expect(() => new StandardWebhook(hook.secret).verify(second.body, second.headers as Record<string, string>)).toThrow();
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('times out a receiver that hangs, retries it, and gives up after the last attempt', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '300' });
    try {
      const rx = await receiver(() => 'hang');
      const hook = await createWebhook(q, rx.url);
      finishExecution(q);
      await rx.waitFor(5, 15_000); // 1 + 4 retries (FAST schedule)
      const d = await waitForDelivery(q, hook.id, (x) => x.status !== 'pending');
      expect(d).toMatchObject({ status: 'failed', attempt: 5, status_code: null, error: 'Timed out after 300 ms', next_attempt_at: null });
      for (const a of d.attempts) expect(a.latency_ms).toBeGreaterThanOrEqual(290);
      const w = await webhookOf(q, hook.id);
      expect([w.success_count, w.failure_count]).toEqual([0, 5]);
      expect(rx.received).toHaveLength(5);
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('retries a refused connection and records why', async () => {
    const port = await closedPort();
    const hook = await createWebhook(p, `http://127.0.0.1:${port}/hook`);
    finishExecution(p);
    const d = await waitForDelivery(p, hook.id, (x) => x.status !== 'pending');
    expect(d.status).toBe('failed');
    expect(d.attempt).toBe(5);
    expect(d.error).toMatch(/ECONNREFUSED/);
    const w = await webhookOf(p, hook.id);
    expect([w.success_count, w.failure_count]).toEqual([0, 5]);
  });

  it('shows the next attempt time while a retry waits', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '60000' });
    try {
      const rx = await receiver(() => ({ status: 503 }));
      const hook = await createWebhook(q, rx.url);
      finishExecution(q);
      await rx.waitFor(1);
      await q.jobs.idle();
      const d = (await deliveriesOf(q, hook.id)).data[0];
      expect(d.status).toBe('pending');
      expect(d.attempt).toBe(1);
      expect(d.error).toBe('HTTP 503');
      // Measured from the failed attempt's own record, not from this test's clock: 60 s ± 20 %.
      const wait = Date.parse(d.next_attempt_at) - Date.parse(d.attempts[0].created_at);
      expect(wait).toBeGreaterThanOrEqual(48_000 - 1_000);
      expect(wait).toBeLessThanOrEqual(72_000 + 1_000);
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('sends nothing to an inactive webhook or a deleted one', async () => {
    const rx = await receiver();
    const inactive = await createWebhook(p, rx.url, 'inactive');
    const deleted = await createWebhook(p, rx.url);
    expect((await call(p, 'DELETE', `/api/webhooks/${deleted.id}`)).status).toBe(200);
    const live = await createWebhook(p, rx.url.replace('/hook', '/live'));
    const execution = finishExecution(p);
    await rx.waitFor(1);
    await deliveriesSettled(p, [inactive.id, live.id]);
    // Only this event counts: a retry of an earlier test's event may reach this port if the OS reused it.
    expect(rx.received.filter((r) => JSON.parse(r.body).data?.id === execution.id)).toHaveLength(1); // only the live one
    expect((await deliveriesOf(p, inactive.id)).total).toBe(0);
    expect((await call(p, 'GET', `/api/webhooks/${deleted.id}/deliveries`)).status).toBe(404);
    expect((await deliveriesOf(p, live.id)).total).toBe(1);
    const w = await webhookOf(p, inactive.id);
    expect([w.success_count, w.failure_count]).toEqual([0, 0]);
    await call(p, 'PATCH', `/api/webhooks/${live.id}`, { body: { status: 'inactive' } });
  });

  it('cancels a waiting retry when its webhook is deactivated or deleted', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const a = await createWebhook(p, rx.url);
    const b = await createWebhook(p, rx.url);
    const execution = finishExecution(p);
    await rx.waitFor(2);
    expect((await call(p, 'PATCH', `/api/webhooks/${a.id}`, { body: { status: 'inactive' } })).status).toBe(200);
    expect((await call(p, 'DELETE', `/api/webhooks/${b.id}`)).status).toBe(200);
    // Both retries come due (40 ms) and find their webhook inactive or deleted: waited for, not slept on.
    const canceled = p.db.prepare<[number, number], { n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id IN (?, ?) AND status = 'canceled'");
    await until('both waiting retries to be canceled', () => canceled.get(a.id, b.id)!.n === 2);
    await p.jobs.idle();
    expect(rx.received.filter((r) => JSON.parse(r.body).data?.id === execution.id)).toHaveLength(2); // the first attempts only
    const d = (await deliveriesOf(p, a.id)).data[0];
    expect(d).toMatchObject({ status: 'canceled', attempt: 1, error: 'Canceled: the webhook is inactive', next_attempt_at: null });
    const row = p.db.prepare('SELECT status, cancel_reason FROM webhook_deliveries WHERE webhook_id = ?').get(b.id);
    expect(row).toEqual({ status: 'canceled', cancel_reason: 'Canceled: the webhook was deleted' });
    const w = await webhookOf(p, a.id);
    expect([w.success_count, w.failure_count]).toEqual([0, 1]);
  });

  it('only delivers events of the webhook’s own agent', async () => {
    const rx = await receiver();
    const other = await call(p, 'POST', '/api/agents', { body: { title: 'Other agent', type: 'chat' } });
    expect(other.status).toBe(201);
    const hook = await createWebhook(p, rx.url, 'active', other.json.id);
    finishExecution(p, { agentId: 1 });
    finishExecution(p, { agentId: other.json.id });
    const [got] = await rx.waitFor(1);
    await deliveriesSettled(p, [hook.id]);
    expect(rx.received).toHaveLength(1);
    expect(JSON.parse(got.body).data.template_id).toBe(other.json.id);
    expect((await deliveriesOf(p, hook.id)).total).toBe(1);
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('does not follow redirects: a 3xx is a failure', async () => {
    const target = await receiver();
    const rx = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const hook = await createWebhook(p, rx.url);
    finishExecution(p);
    await rx.waitFor(5, 5_000);
    await p.jobs.idle();
    expect(target.received).toHaveLength(0);
    const d = (await deliveriesOf(p, hook.id)).data[0];
    expect(d).toMatchObject({ status: 'failed', status_code: 302, error: 'Redirect (302) not followed' });
  });

  it('re-checks the URL at send: a non-http(s) URL that got into the row is refused, not fetched', async () => {
    const rx = await receiver();
    const hook = await createWebhook(p, rx.url);
    p.db.prepare('UPDATE webhooks SET url = ? WHERE id = ?').run('file:///etc/passwd', hook.id);
    const r = await call(p, 'POST', `/api/webhooks/${hook.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'failed', status_code: null, error: 'Refused: only http and https URLs are delivered to (got file:)' });
    expect(r.json.attempts[0].response_body).toBeNull();
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('a name that does not resolve is a failed attempt with a reason, never a crash', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '2000' });
    try {
      const hook = await createWebhook(q, 'http://agent-desk-no-such-host.invalid/hook');
      const r = await call(q, 'POST', `/api/webhooks/${hook.id}/test`);
      expect(r.status).toBe(200);
      expect(r.json.status).toBe('failed');
      expect(r.json.error).toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo|Timed out after 2000 ms/);
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('keeps only the first 4 KB of a response body', async () => {
    const rx = await receiver(() => ({ status: 200, body: 'x'.repeat(100_000) }));
    const hook = await createWebhook(p, rx.url);
    finishExecution(p);
    await rx.waitFor(1);
    await p.jobs.idle();
    const d = (await deliveriesOf(p, hook.id)).data[0];
    expect(d.status).toBe('succeeded');
    expect(d.attempts[0].response_body).toBe('x'.repeat(4096));
  });

  it('fans one event out to every active webhook of the agent, with one webhook-id', async () => {
    const rx = await receiver();
    const hooks = await Promise.all([1, 2, 3].map((i) => createWebhook(p, `${rx.url}/${i}`)));
    finishExecution(p);
    const got = await rx.waitFor(3);
    expect(new Set(got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    // Each is signed with its own webhook's secret.
    for (const h of hooks) {
      const mine = got.filter((g) => {
        try {
          new StandardWebhook(h.secret).verify(g.body, g.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      });
      expect(mine).toHaveLength(1);
    }
    for (const h of hooks) await call(p, 'DELETE', `/api/webhooks/${h.id}`);
  });

  it('serves a failing receiver one delivery at a time, oldest event first', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '60000' });
    try {
      const rx = await receiver(() => ({ status: 500, delayMs: 5 }));
      const hook = await createWebhook(q, rx.url);
      finishExecution(q);
      await rx.waitFor(1);
      await waitForDelivery(q, hook.id, (d) => d.attempt === 1);
      // Its last attempt failed: a burst now goes out strictly one at a time, in event order.
      const sent = Array.from({ length: 20 }, (_, i) => finishExecution(q, { output: `n${i}` }).id);
      const got = await rx.waitFor(21);
      expect(got.slice(1).map((g) => JSON.parse(g.body).data.id)).toEqual(sent);
      expect(rx.maxConcurrent).toBe(1);
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('sends a healthy receiver a burst several at a time (at most 8), oldest first', async () => {
    // A generous timeout: a slow machine must not turn a 30 ms answer into a timeout and a retry.
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '10000' });
    try {
      const rx = await receiver(() => ({ status: 200, delayMs: 30 }));
      await createWebhook(q, rx.url);
      const sent = Array.from({ length: 24 }, () => finishExecution(q).id);
      const got = await rx.waitFor(24);
      expect(rx.maxConcurrent).toBeGreaterThan(1);
      expect(rx.maxConcurrent).toBeLessThanOrEqual(8);
      expect(got.map((g) => JSON.parse(g.body).data.id).sort()).toEqual([...sent].sort());
      // Taken oldest first: none of the last 8 can arrive before all of the first 8 were sent.
      const pos = (id: number) => got.findIndex((g) => JSON.parse(g.body).data.id === id);
      expect(Math.max(...sent.slice(0, 8).map(pos))).toBeLessThan(Math.min(...sent.slice(16).map(pos)));
      await q.jobs.idle();
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('a slow receiver does not hold up the others', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_TIMEOUT_MS: '1500' });
    try {
      const slow = await receiver(() => 'hang');
      const fast = await receiver();
      const other = await call(q, 'POST', '/api/agents', { body: { title: 'Fast agent', type: 'chat' } });
      const s = await createWebhook(q, slow.url);
      await createWebhook(q, fast.url, 'active', other.json.id);
      // A backlog on the slow one (more than all 16 slots), then one event for the fast one.
      for (let i = 0; i < 40; i++) finishExecution(q);
      finishExecution(q, { agentId: other.json.id });
      await fast.waitFor(1, 5_000);
      // It arrived while the slow receiver still held its first requests: none had timed out yet.
      expect(slow.received.length).toBeLessThanOrEqual(8);
      const attempts = q.db.prepare('SELECT count(*) AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = ?').get(s.id);
      expect(attempts).toEqual({ n: 0 });
      await call(q, 'DELETE', `/api/webhooks/${s.id}`);
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });
});
