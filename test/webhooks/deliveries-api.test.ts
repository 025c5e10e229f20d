import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call } from '../api/helpers.js';
import { closedPort } from './receiver.js';
import { createWebhook, deliverySuite, fastPlatform, deliveriesOf, finishExecution, waitForDelivery, webhookOf } from './helpers.js';
import { until } from '../fixtures/until.js';

describe('delivery log, redeliver and test (ext)', () => {
  const { p, receiver } = deliverySuite();

  it('lists deliveries newest first in shape B, with page links and a status filter', async () => {
    // Odd executions are always refused (410), even ones accepted.
    const rx = await receiver((_, req) => (JSON.parse(req.body).data.id % 2 ? { status: 410 } : { status: 200 }));
    const hook = await createWebhook(p, rx.url);
    const ids = Array.from({ length: 5 }, () => finishExecution(p).id);
    await waitForDelivery(p, hook.id, () => true);
    const settled = async () => (await deliveriesOf(p, hook.id, '?per_page=100')).data.every((d: any) => d.status !== 'pending');
    await until('every delivery settled', settled, 10_000, 25);
    const r = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries?per_page=2&page=2`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(
      ['current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links', 'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total'].sort(),
    );
    expect(r.json).toMatchObject({ current_page: 2, per_page: 2, total: 5, last_page: 3, from: 3, to: 4 });
    expect(r.json.path).toBe(`http://127.0.0.1:8787/api/webhooks/${hook.id}/deliveries`);
    expect(r.json.next_page_url).toBe(`http://127.0.0.1:8787/api/webhooks/${hook.id}/deliveries?page=3&per_page=2`);
    expect(r.json.links.map((l: any) => l.label)).toEqual(['pagination.previous', '1', '2', '3', 'pagination.next']);
    const all = (await deliveriesOf(p, hook.id, '?per_page=100')).data;
    const idOf = (d: any) => JSON.parse(rx.received.find((g) => g.headers['webhook-id'] === d.message_id)!.body).data.id;
    expect(all.map(idOf)).toEqual([...ids].reverse()); // newest first
    expect(all.map((d: any) => d.event_type)).toEqual(Array(5).fill('execution.succeeded'));
    const failed = (await deliveriesOf(p, hook.id, '?status=failed')).data;
    expect(failed.map(idOf)).toEqual(ids.filter((id) => id % 2).reverse());
    for (const d of failed) expect(d).toMatchObject({ attempt: 5, status_code: 410, error: 'HTTP 410' });
    const ok = (await deliveriesOf(p, hook.id, '?status=succeeded')).data;
    expect(ok.map(idOf)).toEqual(ids.filter((id) => id % 2 === 0).reverse());
    const past = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries?page=9`);
    expect(past.json).toMatchObject({ data: [], from: null, to: null, total: 5 });
    await call(p, 'PATCH', `/api/webhooks/${hook.id}`, { body: { status: 'inactive' } });
  });

  it('answers bad list input with the contract envelopes', async () => {
    const hook = await createWebhook(p, 'http://127.0.0.1:9/none', 'inactive');
    for (const q of ['per_page=0', 'per_page=101', 'page=0', 'page=abc', 'status=lost']) {
      const r = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries?${q}`);
      expect(r.status, q).toBe(422);
      expect(typeof r.json.message).toBe('string');
      expect(Object.keys(r.json.errors).length).toBeGreaterThan(0);
    }
    for (const id of ['999999', 'abc', '0', '-1', '1.5']) {
      const r = await call(p, 'GET', `/api/webhooks/${id}/deliveries`);
      expect(r.status, id).toBe(404);
      expect(r.json).toEqual({ message: 'Webhook not found' });
    }
    expect((await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries`, { key: null })).status).toBe(401);
    expect((await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries`, { key: 'wrong' })).json).toEqual({ message: 'Unauthenticated.' });
  });

  it('POST /test sends a signed webhook.test at once and answers with the attempt', async () => {
    const rx = await receiver(() => ({ status: 202, body: 'thanks' }));
    const hook = await createWebhook(p, rx.url);
    const r = await call(p, 'POST', `/api/webhooks/${hook.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ webhook_id: hook.id, event_type: 'webhook.test', status: 'succeeded', attempt: 1, status_code: 202, error: null, next_attempt_at: null });
    expect(r.json.attempts[0].response_body).toBe('thanks');
    expect(rx.received).toHaveLength(1); // already there when the answer came
    const payload = new StandardWebhook(hook.secret).verify(rx.received[0].body, rx.received[0].headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id, template_id: 1 } });
    expect(rx.received[0].headers['webhook-id']).toBe(r.json.message_id);
    const w = await webhookOf(p, hook.id);
    expect([w.success_count, w.failure_count]).toEqual([1, 0]);
    expect((await deliveriesOf(p, hook.id)).data[0].id).toBe(r.json.id);
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('POST /test to a dead receiver answers 200 with the failed attempt, not retried', async () => {
    const port = await closedPort();
    const hook = await createWebhook(p, `http://127.0.0.1:${port}/x`);
    const r = await call(p, 'POST', `/api/webhooks/${hook.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'failed', attempt: 1, status_code: null, next_attempt_at: null });
    expect(r.json.error).toMatch(/ECONNREFUSED/);
    const w = await webhookOf(p, hook.id);
    expect([w.success_count, w.failure_count]).toEqual([0, 1]);
    expect((await call(p, 'POST', '/api/webhooks/424242/test')).status).toBe(404);
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
    expect((await call(p, 'POST', `/api/webhooks/${hook.id}/test`)).json).toEqual({ message: 'Webhook not found' });
  });

  it('redelivers with the same webhook-id and a fresh attempt', async () => {
    const rx = await receiver();
    const hook = await createWebhook(p, rx.url);
    finishExecution(p);
    const [first] = await rx.waitFor(1);
    const d = await waitForDelivery(p, hook.id, (x) => x.status === 'succeeded');
    const r = await call(p, 'POST', `/api/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ id: d.id, status: 'pending', attempt: 1 });
    const [, again] = await rx.waitFor(2);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.body).toBe(first.body);
    const after = await waitForDelivery(p, hook.id, (x) => x.attempt === 2);
    expect(after).toMatchObject({ status: 'succeeded', attempt: 2 });
    expect(after.attempts.map((a: any) => a.attempt)).toEqual([1, 2]);
    const w = await webhookOf(p, hook.id);
    expect(w.success_count).toBe(2);
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('redeliver brings a waiting retry forward instead of adding one', async () => {
    const q = fastPlatform({ AGENT_DESK_WEBHOOK_RETRY_DELAYS_MS: '600000' });
    try {
      const rx = await receiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
      const hook = await createWebhook(q, rx.url);
      finishExecution(q);
      const d = await waitForDelivery(q, hook.id, (x) => x.attempt === 1);
      expect(d.status).toBe('pending');
      const r = await call(q, 'POST', `/api/webhooks/${hook.id}/deliveries/${d.id}/redeliver`);
      expect(r.status).toBe(202);
      await rx.waitFor(2);
      const after = await waitForDelivery(q, hook.id, (x) => x.status === 'succeeded');
      expect(after.attempt).toBe(2);
      await q.jobs.idle();
      expect(q.db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'webhook.delivery'").get()).toEqual({ n: 0 });
    } finally {
      await q.close();
      fs.rmSync(q.dir, { recursive: true, force: true });
    }
  });

  it('refuses redelivery with clear 404s and 409s', async () => {
    const rx = await receiver();
    const a = await createWebhook(p, rx.url);
    const b = await createWebhook(p, rx.url);
    finishExecution(p);
    await rx.waitFor(2);
    const da = await waitForDelivery(p, a.id, (x) => x.status === 'succeeded');
    // A delivery of another webhook, unknown ids, malformed ids.
    for (const id of [String(da.id + 100000), 'abc', '0']) {
      const r = await call(p, 'POST', `/api/webhooks/${b.id}/deliveries/${id}/redeliver`);
      expect(r.status, id).toBe(404);
      expect(r.json).toEqual({ message: 'Delivery not found' });
    }
    expect((await call(p, 'POST', `/api/webhooks/${b.id}/deliveries/${da.id}/redeliver`)).json).toEqual({ message: 'Delivery not found' });
    expect((await call(p, 'GET', `/api/webhooks/${a.id}/deliveries/${da.id}`)).json).toMatchObject({ id: da.id, status: 'succeeded' });
    await call(p, 'PATCH', `/api/webhooks/${a.id}`, { body: { status: 'inactive' } });
    const r = await call(p, 'POST', `/api/webhooks/${a.id}/deliveries/${da.id}/redeliver`);
    expect(r.status).toBe(409);
    expect(r.json).toEqual({ message: 'The webhook is inactive; activate it before redelivering.' });
    await call(p, 'DELETE', `/api/webhooks/${a.id}`);
    expect((await call(p, 'POST', `/api/webhooks/${a.id}/deliveries/${da.id}/redeliver`)).json).toEqual({ message: 'Webhook not found' });
    expect((await call(p, 'GET', `/api/webhooks/${a.id}/deliveries/redeliver`)).status).toBe(404);
    await call(p, 'DELETE', `/api/webhooks/${b.id}`);
  });

  it('documents the routes in the OpenAPI document', async () => {
    const r = await call(p, 'GET', '/api/openapi.json', { key: null });
    expect(r.status).toBe(200);
    for (const path of ['/api/webhooks/{id}/deliveries', '/api/webhooks/{id}/deliveries/{deliveryId}', '/api/webhooks/{id}/deliveries/{deliveryId}/redeliver', '/api/webhooks/{id}/test']) {
      expect(r.json.paths[path], path).toBeDefined();
    }
    expect(r.json.components.schemas.WebhookDelivery).toBeDefined();
  });
});
