/**
 * Webhooks as hosted-platform clients create them (CONTRACT.md "Webhooks from hosted clients"):
 * `method` omitted is POST; ext `events` is stored, returned on create and list, and honoured by
 * delivery, checked with real executions against the fake provider and a loopback receiver.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFake, chatBody, CHAT, call } from '../execution/helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { deliveriesOf, deliveriesSettled, FAST, waitForDelivery } from './helpers.js';
import { expect422, WEBHOOK_CREATED_KEYS, keysOf, sorted } from '../api/spec-shapes.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';
import { migrate } from '../../src-main/platform/db/migrate.js';
import { tempDir } from '../api/helpers.js';

const ALL = ['execution.succeeded', 'execution.failed'];

describe('webhooks from hosted clients', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    env = await withFake({ reply: 'Filtered answer.' }, FAST);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await env?.close();
  });
  const create = (body: unknown, agent = CHAT) => call(env.p, 'POST', `/api/agents/${agent}/webhooks`, { body });
  const listed = async (id: number) => (await call(env.p, 'GET', '/api/webhooks?per_page=100')).json.data.find((w: any) => w.id === id);

  it('takes POST when `method` is omitted, as two n8n clients of the hosted platform send it', async () => {
    const r = await create({ url: 'http://127.0.0.1:5678/webhook/n8n' });
    expect(r.status).toBe(201);
    expect(sorted(r.json)).toEqual(keysOf(WEBHOOK_CREATED_KEYS));
    expect(r.json).toMatchObject({ method: 'POST', status: 'active', events: ALL });
    expect(await listed(r.json.id)).toMatchObject({ method: 'POST', events: ALL });
    const forAgent = await call(env.p, 'GET', `/api/agents/${CHAT}/webhooks?per_page=100`);
    expect(forAgent.json.data.find((w: any) => w.id === r.json.id).method).toBe('POST');
    // A method given must still be POST.
    expect422(await create({ url: 'http://127.0.0.1:5678/x', method: 'GET' }), 'method', 'The selected method is invalid.');
  });

  it('stores `events` and returns it on create, list and update; omitted or empty is all', async () => {
    const failedOnly = await create({ url: 'http://127.0.0.1:5678/f', events: ['execution.failed'] });
    expect(failedOnly.status).toBe(201);
    expect(failedOnly.json.events).toEqual(['execution.failed']);
    expect((await listed(failedOnly.json.id)).events).toEqual(['execution.failed']);
    const empty = await create({ url: 'http://127.0.0.1:5678/e', method: 'POST', events: [] });
    expect(empty.json.events).toEqual(ALL);
    expect((await listed(empty.json.id)).events).toEqual(ALL);
    // Repeats collapse; order is the contract's.
    const both = await create({ url: 'http://127.0.0.1:5678/b', events: ['execution.failed', 'execution.succeeded', 'execution.failed'] });
    expect(both.json.events).toEqual(ALL);
    const patched = await call(env.p, 'PATCH', `/api/webhooks/${empty.json.id}`, { body: { events: ['execution.succeeded'] } });
    expect(patched.status).toBe(200);
    expect(patched.json.events).toEqual(['execution.succeeded']);
    expect((await listed(empty.json.id)).events).toEqual(['execution.succeeded']);
    // A PATCH without `events` keeps them.
    expect((await call(env.p, 'PATCH', `/api/webhooks/${empty.json.id}`, { body: { status: 'inactive' } })).json.events).toEqual(['execution.succeeded']);
  });

  it('keeps names it does not know and ignores them: the n8n node\'s body gets every event', async () => {
    // What n8n's node for the hosted platform sends: no method, an event name of its own.
    const n8n = await create({ url: 'http://127.0.0.1:5678/webhook/n8n', events: ['AGENT_RESPONSE_CREATED'] });
    expect(n8n.status, n8n.text).toBe(201);
    expect(n8n.json).toMatchObject({ method: 'POST', status: 'active', events: ALL });
    expect((await listed(n8n.json.id)).events).toEqual(ALL);
    // Kept as sent, so an export or a later platform sees what the client asked for.
    expect(env.p.db.prepare('SELECT events FROM webhooks WHERE id = ?').get(n8n.json.id)).toEqual({ events: '["AGENT_RESPONSE_CREATED"]' });
    const mixed = await create({ url: 'http://127.0.0.1:5678/m', events: ['AGENT_RESPONSE_CREATED', 'execution.failed'] });
    expect(mixed.status, mixed.text).toBe(201);
    expect(mixed.json.events).toEqual(['execution.failed']);
  });

  it('refuses a non-array, and entries that are not names, with 422 saying so once', async () => {
    const asString = await create({ url: 'http://127.0.0.1:5678/x', events: 'execution.failed' });
    expect422(asString, 'events', 'The events field must be an array.');
    expect(asString.json).toEqual({ message: 'The events field must be an array.', errors: { events: ['The events field must be an array.'] } });
    const some = (await call(env.p, 'GET', '/api/webhooks?per_page=1')).json.data[0];
    expect422(await call(env.p, 'PATCH', `/api/webhooks/${some.id}`, { body: { events: [42] } }), 'events.0', 'The events.0 field must be a string.');
    expect422(await create({ url: 'http://127.0.0.1:5678/x', events: ['x'.repeat(101)] }), 'events.0');
  });

  it('delivers each execution only to the webhooks subscribed to its event', async () => {
    // An agent of its own: the hooks made above on the chat agent hear none of these executions.
    const chat = (await call(env.p, 'GET', `/api/agents/${CHAT}`)).json;
    const agent = (await call(env.p, 'POST', '/api/agents', { body: { title: 'Filtered hooks', type: 'chat', questions: chat.questions } })).json;
    const rx = { failed: await startReceiver(), succeeded: await startReceiver(), all: await startReceiver(), n8n: await startReceiver() };
    receivers.push(rx.failed, rx.succeeded, rx.all, rx.n8n);
    const hook = {
      failed: (await create({ url: rx.failed.url, events: ['execution.failed'] }, agent.id)).json,
      succeeded: (await create({ url: rx.succeeded.url, events: ['execution.succeeded'] }, agent.id)).json,
      all: (await create({ url: rx.all.url }, agent.id)).json,
      n8n: (await create({ url: rx.n8n.url, events: ['AGENT_RESPONSE_CREATED'] }, agent.id)).json,
    };
    const ids = [hook.failed.id, hook.succeeded.id, hook.all.id, hook.n8n.id];

    const ok = await call(env.p, 'POST', `/api/agents/${agent.id}/execute`, { body: { ...chatBody('Which hooks hear this?'), wait_execution: true } });
    expect(ok.json.responses[0].status).toBe('succeeded');
    await waitForDelivery(env.p, hook.all.id, (d) => d.status === 'succeeded');
    await waitForDelivery(env.p, hook.succeeded.id, (d) => d.status === 'succeeded');
    await deliveriesSettled(env.p, ids);
    expect(rx.failed.received).toHaveLength(0);
    expect((await deliveriesOf(env.p, hook.failed.id)).data).toHaveLength(0);
    expect(JSON.parse(rx.succeeded.received[0].body).type).toBe('execution.succeeded');
    expect(JSON.parse(rx.all.received[0].body).type).toBe('execution.succeeded');

    env.fake.set({ fail: 'status', failStatus: 500 });
    try {
      const bad = await call(env.p, 'POST', `/api/agents/${agent.id}/execute`, { body: { ...chatBody('And this one?'), wait_execution: true } });
      expect(bad.json.responses[0].status).toBe('failed');
    } finally {
      env.fake.set({ fail: null });
    }
    await waitForDelivery(env.p, hook.failed.id, (d) => d.status === 'succeeded' && d.event_type === 'execution.failed');
    await waitForDelivery(env.p, hook.all.id, (d) => d.status === 'succeeded' && d.event_type === 'execution.failed');
    await waitForDelivery(env.p, hook.n8n.id, (d) => d.status === 'succeeded' && d.event_type === 'execution.failed');
    await deliveriesSettled(env.p, ids);
    expect(rx.failed.received.map((r) => JSON.parse(r.body).type)).toEqual(['execution.failed']);
    expect(rx.succeeded.received.map((r) => JSON.parse(r.body).type)).toEqual(['execution.succeeded']);
    expect(rx.all.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(['execution.failed', 'execution.succeeded']);
    // Only a name it does not know: every event, as on the hosted platform.
    expect(rx.n8n.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(['execution.failed', 'execution.succeeded']);
  });
});

describe('migration 13 webhook events', () => {
  it('gives existing webhooks every event', () => {
    const dir = tempDir();
    const db = openDatabase(dir);
    try {
      expect(migrate(db, { target: 12 })).toBe(12);
      db.exec(`INSERT INTO users(id, name, created_at) VALUES (1, 'me', 0);
        INSERT INTO workspaces(id, name, created_at) VALUES (1, 'Personal', 0);
        INSERT INTO agents(id, workspace_id, title, slug, type, created_by, created_at, updated_at) VALUES (1, 1, 'A', 'a', 'chat', 1, 0, 0);
        INSERT INTO webhooks(id, agent_id, user_id, url, secret, created_at, updated_at) VALUES (1, 1, 1, 'http://127.0.0.1:9/x', 'whsec_AAAA', 0, 0);`);
      expect(migrate(db, { target: 13 })).toBe(13);
      expect(db.prepare('SELECT id, url, events FROM webhooks').all()).toEqual([{ id: 1, url: 'http://127.0.0.1:9/x', events: '[]' }]);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
