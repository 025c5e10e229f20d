import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { KEY, http, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

const user = (content: string) => ({ role: 'user' as const, content });

/** Every bad input on /v1 is a clear 4xx in OpenAI's error shape; nothing is run or lost. */
describe('OpenAI-compatible errors', () => {
  let s: TestServer & { fake: FakeServer };
  let client: OpenAI;
  beforeAll(async () => {
    s = await startWithFake({ reply: 'ok' });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(() => s?.close());

  const post = (body: unknown, key: string | null = KEY) => http(s, 'POST', '/v1/chat/completions', body, key);
  const executions = () => (s.p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;
  const expectShape = (json: any) => {
    expect(Object.keys(json)).toEqual(['error']);
    expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(typeof json.error.message).toBe('string');
  };

  it('a bad key is the SDK\'s AuthenticationError with code invalid_api_key', async () => {
    const bad = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: 'not-a-key', maxRetries: 0 });
    const err = await bad.chat.completions.create({ model: 'chat', messages: [user('hi')] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.status).toBe(401);
    expect(err.code).toBe('invalid_api_key');
    expect(err.type).toBe('invalid_request_error');
    const models = await bad.models.list().catch((e) => e);
    expect(models).toBeInstanceOf(OpenAI.AuthenticationError);

    const none = await http(s, 'GET', '/v1/models', undefined, null);
    expect(none.status).toBe(401);
    expectShape(none.json);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    // Other routes keep the platform's own 401 body.
    const api = await http(s, 'GET', '/api/agents', undefined, null);
    expect(api.json).toEqual({ message: 'Unauthenticated.' });
  });

  it('an unknown model is 404 model_not_found, before any execution', async () => {
    const before = executions();
    const err = await client.chat.completions.create({ model: 'no-such-model', messages: [user('hi')] }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.code).toBe('model_not_found');
    expect(err.param).toBe('model');
    expect(err.error).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found' });
    const retrieve = await client.models.retrieve('no-such-model').catch((e) => e);
    expect(retrieve).toBeInstanceOf(OpenAI.NotFoundError);
    const agentPath = await http(s, 'POST', '/api/agents/999999/openai/chat/completions', { messages: [user('hi')] });
    expect(agentPath.status).toBe(404);
    expectShape(agentPath.json);
    expect(executions()).toBe(before);
  });

  it('invalid parameters are 400 invalid_request_error naming the parameter', async () => {
    const before = executions();
    const cases: [unknown, string][] = [
      [{ messages: [user('hi')] }, 'model'],
      [{ model: 'chat' }, 'messages'],
      [{ model: 'chat', messages: [] }, 'messages'],
      [{ model: 'chat', messages: 'hi' }, 'messages'],
      [{ model: 'chat', messages: [{ role: 'wizard', content: 'x' }] }, 'messages.0.role'],
      [{ model: 'chat', messages: [user('hi')], temperature: 3 }, 'temperature'],
      [{ model: 'chat', messages: [user('hi')], temperature: 'hot' }, 'temperature'],
      [{ model: 'chat', messages: [user('hi')], max_tokens: 0 }, 'max_tokens'],
      [{ model: 'chat', messages: [user('hi')], max_tokens: 1.5 }, 'max_tokens'],
      [{ model: 'chat', messages: [user('hi')], stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
      [{ model: 'chat', messages: [user('hi')], stream: 'yes' }, 'stream'],
      [{ model: 'chat', messages: [user('hi')], n: 2 }, 'n'],
      [{ model: 'chat', messages: [user('hi')], tool_choice: 'required' }, 'tool_choice'],
      [{ model: 'chat', messages: [user('hi'), { role: 'tool', content: 'x', tool_call_id: 'c' }] }, 'messages[1].tool_call_id'],
      [{ model: 'chat', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }] }, 'messages[0].content[0].image_url'],
      [{ model: 'chat', messages: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'messages[0].content'],
      [{ model: 'chat', messages: [user('hi')], tools: [{ type: 'function', function: { name: 'f' } }], tool_choice: { type: 'function', function: { name: 'g' } } }, 'tool_choice'],
      [{ model: 'chat', messages: [user('hi')], tools: [{ type: 'code_interpreter' }] }, 'tools[0].type'],
      [{ model: 'chat', messages: [user('hi'), { role: 'assistant', content: 'prefill' }] }, 'messages'],
      [{ model: 'chat', messages: [{ role: 'system', content: 'only a system prompt' }] }, 'messages'],
      [{ model: 'chat', messages: [user('hi')], file_ids: [999999] }, 'file_ids.0'],
    ];
    for (const [body, param] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expectShape(r.json);
      expect(r.json.error.type).toBe('invalid_request_error');
      expect(r.json.error.param, JSON.stringify(body)).toBe(param);
    }
    expect(executions()).toBe(before);
  });

  it('accepts (and ignores) the OpenAI fields it has no use for', async () => {
    const r = await post({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi', name: 'ann' }],
      user: 'u-1', seed: 7, top_p: 0.9, presence_penalty: 0.1, frequency_penalty: 0.2, logit_bias: { '50256': -100 },
      metadata: { a: 'b' }, store: false, n: 1, tool_choice: 'auto', tools: [], response_format: { type: 'text' }, parallel_tool_calls: false,
    });
    expect(r.status).toBe(200);
    expect(r.json.object).toBe('chat.completion');
  });

  it('the SDK surfaces those as BadRequestError', async () => {
    const err = await client.chat.completions.create({ model: 'chat', messages: [user('hi')], temperature: 5 }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe('temperature');
  });

  it('malformed JSON, an oversized body, an unknown path and a wrong method keep OpenAI\'s shape', async () => {
    const malformed = await fetch(`${s.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: '{"model":' });
    expect(malformed.status).toBe(400);
    expectShape(await malformed.json());

    const big = await fetch(`${s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'chat', messages: [user('x'.repeat(5 * 1024 * 1024))] }),
    });
    expect(big.status).toBe(413);
    const bigJson = await big.json();
    expectShape(bigJson);

    const unknown = await http(s, 'GET', '/v1/audio/voices');
    expect(unknown.status).toBe(404);
    expectShape(unknown.json);
    expect(unknown.json.error.message).toBe('Invalid URL (GET /v1/audio/voices).');

    const method = await http(s, 'GET', '/v1/chat/completions');
    expect(method.status).toBe(405);
    expectShape(method.json);
    expect(method.headers.get('allow')).toBe('POST');
  });

  it('a provider failure is a 502 that the SDK does not retry; the failed execution is stored', async () => {
    s.fake.set({ fail: 'status', failStatus: 500, failMessage: 'upstream exploded' });
    try {
      const retrying = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 2 });
      const calls = s.fake.requests.length;
      const err = await retrying.chat.completions.create({ model: 'gpt-4o-mini', messages: [user('hi')] }).catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.status).toBe(502);
      expect(err.type).toBe('server_error');
      expect(err.message).toContain('upstream exploded');
      // x-should-retry: false, because a retry would run (and bill) a second execution.
      expect(err.headers.get('x-should-retry')).toBe('false');
      expect(s.fake.requests.length - calls).toBe(1);
      const stored = await http(s, 'GET', `/api/agent-responses/${err.headers.get('x-agent-desk-execution-id')}`);
      expect(stored.json.status).toBe('failed');

      // Streaming: the failure comes before any text, so it is still a real HTTP error.
      const streamErr = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [user('hi')], stream: true }).catch((e) => e);
      expect(streamErr).toBeInstanceOf(OpenAI.APIError);
      expect(streamErr.status).toBe(502);
    } finally {
      s.fake.set({ fail: null });
    }
  });

  it('a stream that breaks after some text ends with an error frame the SDK throws', async () => {
    s.fake.set({ reply: 'one two three four five six', fail: 'break', breakAfter: 2 });
    try {
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [user('count')], stream: true });
      let text = '';
      let id = '';
      const err = await (async () => {
        for await (const c of stream) {
          id = c.id;
          text += c.choices[0]?.delta?.content ?? '';
        }
      })().catch((e) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(text).toBe('one two');
      const stored = await http(s, 'GET', `/api/agent-responses/${id.replace('chatcmpl-', '')}`);
      expect(stored.json.status).toBe('failed');
      expect(stored.json.output).toBe('one two');
    } finally {
      s.fake.set({ reply: 'ok', fail: null });
    }
  });
});
