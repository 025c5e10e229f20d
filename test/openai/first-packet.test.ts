import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';

/**
 * A /v1 stream's headers, its opening events and the first text leave the server in one socket
 * write: a client (and the network between) is woken once, with the text, not once for the
 * headers and again for the frames. Recorded at the server's sockets (each `_writeGeneric` call
 * is one write to the kernel), so the order of reads on the client side does not matter.
 */
describe('/v1 streams: the first text goes out with the headers', () => {
  let s: TestServer & { fake: FakeServer };
  const writes: string[] = [];
  beforeAll(async () => {
    s = await startWithFake({ reply: 'Bonjour tout le monde' });
    s.running.server.on('connection', (socket: Socket) => {
      const sock = socket as Socket & { _writeGeneric(writev: boolean, data: unknown, encoding: string, cb: unknown): void };
      const generic = sock._writeGeneric;
      sock._writeGeneric = function (writev, data, encoding, cb) {
        const parts = writev ? (data as { chunk: Buffer | string }[]).map((d) => d.chunk) : [data as Buffer | string];
        writes.push(parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join(''));
        return generic.call(this, writev, data, encoding, cb);
      };
    });
  });
  afterAll(() => s?.close());

  const doors: { name: string; path: string; headers: Record<string, string>; body: unknown; text: string }[] = [
    { name: '/v1/responses', path: '/v1/responses', headers: { authorization: `Bearer ${KEY}` }, body: { model: 'gpt-4o-mini', stream: true, input: 'hi' }, text: '"type":"response.output_text.delta"' },
    {
      name: '/v1/messages',
      path: '/v1/messages',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      body: { model: 'gpt-4o-mini', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] },
      text: '"type":"text_delta"',
    },
    {
      name: '/v1/chat/completions',
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${KEY}` },
      body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] },
      text: '"content":"Bonjour',
    },
  ];

  for (const door of doors) {
    it(`${door.name}: the write that carries the headers carries the first text too`, async () => {
      writes.length = 0;
      const res = await fetch(`${s.url}${door.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...door.headers }, body: JSON.stringify(door.body) });
      expect(res.status).toBe(200);
      const all = await res.text();
      expect(all).toContain('Bonjour');
      const head = writes.find((w) => w.includes('text/event-stream'));
      expect(head, 'the stream headers were written').toBeDefined();
      expect(head).toContain(door.text);
    });
  }
});
