import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, http, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { until } from '../fixtures/until.js';
import { TOKENS, tokenGate } from '../fixtures/token-gate.js';

const body = (extra: object = {}) => JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'go' }], ...extra });

async function waitForStatus(s: TestServer, id: string, status: string) {
  return until(`execution ${id} to be ${status}`, async () => {
    const r = await http(s, 'GET', `/api/agent-responses/${id}`);
    return r.json.status === status ? r.json : null;
  }, 10_000);
}

describe('OpenAI-compatible streaming edge cases', () => {
  let s: TestServer & { fake: FakeServer };
  beforeAll(async () => {
    s = await startWithFake({ reply: 'ok' });
    // Warm up: the first execution loads the tokenizer, which holds the event loop for a moment.
    expect((await http(s, 'POST', '/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'warm up' }] })).status).toBe(200);
  });
  afterAll(() => s?.close());

  it('a slow first token still gets the stream going, and nothing is lost across the hand-off', async () => {
    // The model's first token is held until the stream has started: headers and the role chunk must
    // go out without it (after the server's hold), then every token follows.
    const gate = tokenGate();
    s.fake.set({ tokens: TOKENS, gate: gate.gate });
    try {
      const res = await fetch(`${s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body() });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      const dec = new TextDecoder();
      let raw = '';
      while (!raw.includes('\n\n')) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += dec.decode(value, { stream: true });
      }
      expect(raw).not.toContain('"content":"w');
      gate.allow(Infinity);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += dec.decode(value, { stream: true });
      }
      const chunks = raw.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)));
      expect(chunks[0].choices[0].delta.role).toBe('assistant');
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(TOKENS.join(''));
      expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    } finally {
      gate.allow(Infinity);
      s.fake.set({ tokens: undefined, gate: undefined });
    }
  });

  it('a client that goes away mid-stream does not stop the execution: it completes and is stored', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `t${i} `);
    s.fake.set({ tokens: words, delayMs: 15 });
    try {
      const ac = new AbortController();
      const res = await fetch(`${s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body(), signal: ac.signal });
      const id = res.headers.get('x-agent-desk-execution-id')!;
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      const stored = await waitForStatus(s, id, 'succeeded');
      expect(stored.output).toBe(words.join(''));
    } finally {
      s.fake.set({ tokens: undefined, delayMs: 0 });
    }
  });

  it('many concurrent streams each get their own whole answer', async () => {
    s.fake.set({ tokens: (b: any) => [`echo:`, ` ${b.messages.at(-1).content}`], delayMs: 2 });
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const res = await fetch(`${s.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: `n${i}` }] }),
          });
          const raw = await res.text();
          return raw.split('\n\n').filter((f) => f.startsWith('data: {')).map((f) => JSON.parse(f.slice(6)).choices[0]?.delta?.content ?? '').join('');
        }),
      );
      expect(results).toEqual(Array.from({ length: 20 }, (_, i) => `echo: n${i}`));
    } finally {
      s.fake.set({ tokens: undefined, delayMs: 0 });
    }
  });
});
