import { describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call } from '../api/helpers.js';
import { expect422, expectWebhook } from '../api/spec-shapes.js';
import { createWebhook, deliveriesOf, deliverySuite, finishExecution, waitForDelivery, webhookOf } from './helpers.js';

/** Changing a webhook's URL, events or description keeps the webhook: its id, secret, counters and delivery log. */
describe('a webhook edited in place (ext PATCH)', () => {
  const { p, receiver } = deliverySuite();

  it('a new URL, events and description: same id and secret, the log and counters kept, the next event goes to the new URL signed as before', async () => {
    const first = await receiver();
    const second = await receiver();
    const hook = await createWebhook(p, first.url);
    finishExecution(p);
    await waitForDelivery(p, hook.id, (d) => d.status === 'succeeded');
    const before = await webhookOf(p, hook.id);
    expect(before.success_count).toBe(1);

    const r = await call(p, 'PATCH', `/api/webhooks/${hook.id}`, { body: { url: second.url, events: ['execution.failed'], description: '  n8n: tell the team when a run fails  ' } });
    expect(r.status).toBe(200);
    expectWebhook(r.json);
    expect(r.json).toMatchObject({ id: hook.id, url: second.url, events: ['execution.failed'], description: 'n8n: tell the team when a run fails', success_count: 1, created_at: before.created_at });
    expect(r.json).not.toHaveProperty('secret');
    const log = (await deliveriesOf(p, hook.id)).data;
    expect(log).toHaveLength(1);
    expect(log[0].status).toBe('succeeded');

    // A success is no longer one of its events; a failure is, and goes to the new URL.
    finishExecution(p, { type: 'execution.succeeded' });
    const failed = finishExecution(p, { type: 'execution.failed' });
    const [got] = await second.waitFor(1);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'execution.failed', data: { id: failed.id } });
    // Signed with the secret made at create: a receiver keeps verifying without a change.
    expect(() => new StandardWebhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    await waitForDelivery(p, hook.id, (d) => d.status === 'succeeded' && d.event_type === 'execution.failed');
    expect(first.received).toHaveLength(1);
    const after = await webhookOf(p, hook.id);
    expect(after).toMatchObject({ id: hook.id, success_count: 2, description: 'n8n: tell the team when a run fails' });
    expect((await deliveriesOf(p, hook.id)).data).toHaveLength(2);
  });

  it('a description is kept when other fields change, cleared by "" or null, and shown in lists', async () => {
    const created = await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: 'http://127.0.0.1:9/a', status: 'inactive', description: 'Zapier' } });
    expect(created.status).toBe(201);
    expect(created.json.description).toBe('Zapier');
    const id = created.json.id;
    expect((await call(p, 'PATCH', `/api/webhooks/${id}`, { body: { status: 'inactive', url: 'http://127.0.0.1:9/b' } })).json.description).toBe('Zapier');
    expect((await webhookOf(p, id)).description).toBe('Zapier');
    expect((await call(p, 'PATCH', `/api/webhooks/${id}`, { body: { description: '' } })).json.description).toBeNull();
    expect((await call(p, 'PATCH', `/api/webhooks/${id}`, { body: { description: 'again' } })).json.description).toBe('again');
    expect((await call(p, 'PATCH', `/api/webhooks/${id}`, { body: { description: null } })).json.description).toBeNull();
    const plain = await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: 'http://127.0.0.1:9/c', status: 'inactive' } });
    expect(plain.json.description).toBeNull();
  });

  it('refuses a bad description with the contract 422', async () => {
    const hook = await createWebhook(p, 'http://127.0.0.1:9/none', 'inactive');
    expect422(await call(p, 'PATCH', `/api/webhooks/${hook.id}`, { body: { description: 'x'.repeat(501) } }), 'description', 'The description field must not be greater than 500 characters.');
    expect422(await call(p, 'PATCH', `/api/webhooks/${hook.id}`, { body: { description: 42 } }), 'description');
    expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: 'http://127.0.0.1:9/x', description: ['a'] } }), 'description');
    expect((await webhookOf(p, hook.id)).description).toBeNull();
  });
});
