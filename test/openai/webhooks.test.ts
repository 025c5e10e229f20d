import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { KEY, http as call, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local receiver standing in for n8n & co. */
async function receiver() {
  const got: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  /** Resolves once `n` deliveries have arrived, or fails after 10 s. */
  const until = async (n: number) => {
    const deadline = Date.now() + limit(10_000);
    while (got.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${got.length} of ${n} deliveries arrived`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 200);
      });
    }
  };
  return { url, got, until, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('executions made through /v1 fire the agent\'s webhooks', () => {
  let s: TestServer & { fake: FakeServer };
  let hook: Awaited<ReturnType<typeof receiver>>;
  let secret: string;
  beforeAll(async () => {
    s = await startWithFake({ reply: 'Hooked answer.' });
    hook = await receiver();
    const created = await call(s, 'POST', '/api/agents/1/webhooks', { url: hook.url, method: 'POST' });
    expect(created.status).toBe(201);
    secret = created.json.secret;
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });

  it('delivers execution.succeeded, signed, with the completion\'s execution', async () => {
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Ping the hook' }] });
    const executionId = Number(res.id.replace('chatcmpl-', ''));
    await hook.until(1);
    const [d] = hook.got;
    // Standard Webhooks signature over the exact body.
    const payload = new Webhook(secret).verify(d.body, {
      'webhook-id': String(d.headers['webhook-id']),
      'webhook-timestamp': String(d.headers['webhook-timestamp']),
      'webhook-signature': String(d.headers['webhook-signature']),
    }) as any;
    expect(payload.type).toBe('execution.succeeded');
    expect(payload.data).toMatchObject({ id: executionId, status: 'succeeded', output: 'Hooked answer.', input: 'Ping the hook', template_id: 1 });
  });

  it('delivers execution.failed for a failed streamed completion', async () => {
    s.fake.set({ fail: 'status', failMessage: 'provider down' });
    try {
      const res = await fetch(`${s.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'fail please' }] }),
      });
      expect(res.status).toBe(502);
      const executionId = Number(res.headers.get('x-agent-desk-execution-id'));
      await res.body?.cancel();
      await hook.until(2);
      const payload = JSON.parse(hook.got[1].body);
      expect(payload.type).toBe('execution.failed');
      expect(payload.data).toMatchObject({ id: executionId, status: 'failed' });
      expect(payload.data.error.message).toContain('provider down');
    } finally {
      s.fake.set({ fail: null });
    }
  });
});
