import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { withFake, chatBody, CHAT, call } from '../execution/helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { createWebhook, FAST, waitForDelivery } from './helpers.js';

// Through a real execution with the fake model provider: execute → execution.finished → delivery.
describe('webhooks end to end with a real execution', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let rx: Receiver;
  beforeAll(async () => {
    env = await withFake({ reply: 'Bees like lavender.' }, FAST);
    rx = await startReceiver();
  });
  afterAll(async () => {
    await env?.close();
    await rx?.close();
  });

  it('delivers execution.succeeded with the stored execution, input included', async () => {
    const hook = await createWebhook(env.p, rx.url, 'active', CHAT);
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('What do bees like?'), wait_execution: true } });
    expect(r.status).toBe(200);
    const done = r.json.responses[0];
    expect(done.status).toBe('succeeded');
    const [got] = await rx.waitFor(1);
    const payload = new StandardWebhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as any;
    expect(payload.type).toBe('execution.succeeded');
    const stored = await call(env.p, 'GET', `/api/agent-responses/${done.id}`);
    expect(payload.data).toEqual(stored.json);
    expect(payload.data.output).toBe('Bees like lavender.');
    expect(typeof payload.data.input).toBe('string');
    expect(payload.data.input).toContain('What do bees like?');
    const d = await waitForDelivery(env.p, hook.id, (x) => x.status === 'succeeded');
    expect(d.event_type).toBe('execution.succeeded');
  });

  it('delivers execution.failed when the provider fails', async () => {
    env.fake.set({ fail: 'status', failStatus: 500 });
    try {
      const before = rx.received.length;
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Again?'), wait_execution: true } });
      expect(r.json.responses[0].status).toBe('failed');
      const got = await rx.waitFor(before + 1);
      const payload = JSON.parse(got[before].body);
      expect(payload.type).toBe('execution.failed');
      expect(payload.data.id).toBe(r.json.responses[0].id);
      expect(payload.data.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    } finally {
      env.fake.set({ fail: null });
    }
  });
});
