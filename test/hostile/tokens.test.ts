import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import {
  CHUNK_CHARS, EXACT_MAX_CHARS, MAX_MESSAGE_CHARS, MAX_OUTPUT_CHARS, boundedCount, countTokensSync, pieces, tokenCounter,
} from '../../src-main/platform/engine/tokens.js';
import { CHAT, call, chatBody, withFake } from '../execution/helpers.js';
import { KEY } from '../api/helpers.js';
import { listen } from '../../src-main/platform/transports/http/server.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { limit } from '../fixtures/until.js';

/** A raw counter that records the work BPE would do (quadratic in a piece's length). */
function quadraticProbe() {
  const probe = { work: 0, longest: 0, count: (t: string) => {
    probe.work += t.length * t.length;
    probe.longest = Math.max(probe.longest, t.length);
    return Math.ceil(t.length / 4);
  } };
  return probe;
}

describe('token counting is bounded', () => {
  it('pieces cover the text exactly, none longer than the chunk, no surrogate pair split', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', 'é', '😀', 'b', 'x'), maxLength: 6000 }), (s) => {
        const ps = pieces(s);
        expect(ps.join('')).toBe(s);
        for (const p of ps) {
          expect(p.length).toBeLessThanOrEqual(CHUNK_CHARS);
          const last = p.charCodeAt(p.length - 1);
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the work handed to BPE is bounded whatever the input (no run without spaces goes whole)', () => {
    const works: number[] = [];
    for (const n of [10_000, 160_000, 320_000, 10_000_000]) {
      const probe = quadraticProbe();
      const result = boundedCount(probe.count, 'a'.repeat(n));
      expect(probe.longest).toBeLessThanOrEqual(CHUNK_CHARS);
      expect(result).toBe(Math.ceil(n / 4));
      works.push(probe.work);
    }
    // Linear up to EXACT_MAX_CHARS, then constant: 10 MB costs what 160 KB does.
    expect(works[3]).toBe(works[1]);
    expect(works[1]).toBeLessThanOrEqual(EXACT_MAX_CHARS * CHUNK_CHARS);
  });

  it('exact counts equal the tokenizer on prose and stay close on any text', async () => {
    const count = await tokenCounter();
    const prose = 'The quick brown fox jumps over the lazy dog, then rests.\nA second line follows here. '.repeat(300);
    expect(prose.length).toBeLessThan(EXACT_MAX_CHARS);
    expect(count(prose)).toBe(countTokens(prose));
    expect(countTokensSync('hello world')).toBe(countTokens('hello world'));
    const mixed = Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 'naïve😀 ' : `w${i}\t`)).join('');
    expect(Math.abs(count(mixed) - countTokens(mixed)) / countTokens(mixed)).toBeLessThan(0.02);
  });

  it('a 320,000-character message without spaces is counted at once (it took 57 s)', async () => {
    const count = await tokenCounter();
    const n = count('z'.repeat(320_000));
    // o200k reads "zz" as one token: the scaled count of the head is the whole's.
    expect(n).toBe(160_000);
  }, limit(10_000));
});

describe('message and output caps', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'ok' });
  });
  afterAll(async () => {
    await env.close();
  });

  it('a model streaming past the output cap is stopped with a clear error; the text up to the cap is kept', async () => {
    // Five 1,000,000-character tokens without spaces and no usage report.
    env.fake.set({ tokens: Array.from({ length: 5 }, (_, i) => String.fromCharCode(97 + i).repeat(1_000_000)), usage: false });
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('go'), wait_execution: true } });
      const e = r.json.responses[0];
      expect(e.status).toBe('failed');
      expect(e.error.code).toBe('output_too_long');
      expect(e.error.message).toMatch(/limit of 4,000,000 characters/);
      expect(e.output.length).toBe(MAX_OUTPUT_CHARS);
      // The app still answers.
      expect((await call(env.p, 'GET', '/api/agents')).status).toBe(200);
    } finally {
      env.fake.set({ tokens: undefined, usage: true });
    }
  }, limit(60_000));

  const stored = () => (env.p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;

  it('a message over the cap is refused with 422 naming the field, before anything is stored or the model is called', async () => {
    const requests = env.fake.requests.length;
    const executions = stored();
    const tooLong = 'q'.repeat(MAX_MESSAGE_CHARS + 1);
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody(tooLong), wait_execution: true } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      message: 'The messages.0.content field must not be greater than 1000000 characters.',
      errors: { 'messages.0.content': ['The messages.0.content field must not be greater than 1000000 characters.'] },
    });
    // Text parts count together; the index is the message's own.
    const parts = { messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: [{ type: 'text', text: 'q'.repeat(600_000) }, { type: 'text', text: 'q'.repeat(400_001) }] }] };
    const r2 = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: parts });
    expect(r2.status).toBe(422);
    expect(Object.keys(r2.json.errors)).toEqual(['messages.2.content']);
    expect(stored()).toBe(executions);
    expect(env.fake.requests.length).toBe(requests);
    // At the cap itself the request is accepted (and fails later only if the model's window is too small).
    const atCap = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('q'.repeat(MAX_MESSAGE_CHARS)) });
    expect(atCap.status).toBe(200);
    expect(stored()).toBe(executions + 1);
  }, limit(30_000));

  it('/v1/chat/completions refuses it with 400 in the OpenAI shape, naming the message as sent', async () => {
    const executions = stored();
    const body = { model: 'chat', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'q'.repeat(MAX_MESSAGE_CHARS + 1) }] };
    const r = await call(env.p, 'POST', '/v1/chat/completions', { body });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: { message: 'The messages.1.content field must not be greater than 1000000 characters.', type: 'invalid_request_error', param: 'messages.1.content', code: 'invalid_value' },
    });
    const streamed = await call(env.p, 'POST', '/v1/chat/completions', { body: { ...body, stream: true } });
    expect(streamed.status).toBe(400);
    expect(stored()).toBe(executions);
  }, limit(30_000));

  it('MCP run_agent refuses an over-long message before running anything', async () => {
    const executions = stored();
    const running = await listen(env.p, { host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'cap-test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
      const res = await client.callTool({ name: 'run_agent', arguments: { agent: 'chat', message: 'q'.repeat(MAX_MESSAGE_CHARS + 1) } }).catch((err: Error) => ({ isError: true, content: [{ type: 'text', text: err.message }] }));
      expect(res.isError).toBe(true);
      expect(JSON.stringify(res.content)).toMatch(/message/i);
      expect(stored()).toBe(executions);
    } finally {
      await client.close();
      await running.close();
    }
  }, limit(30_000));
});
