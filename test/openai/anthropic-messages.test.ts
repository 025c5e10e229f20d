import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { KEY, http, startServer, type TestServer } from './server.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { TINY_PNG } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

/**
 * /v1/messages with @anthropic-ai/sdk, against the platform whose `anthropic` provider is the fake
 * Anthropic server: Anthropic in, the engine, Anthropic out, each message an execution.
 */
describe('/v1/messages (Anthropic SDK)', () => {
  let s: TestServer;
  let fake: FakeAnthropic;
  let client: Anthropic;
  const MODEL = 'claude-fake-1';
  const REPLY = 'Bonjour from the fake Claude.';
  const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];

  beforeAll(async () => {
    fake = await startFakeAnthropic({
      reply: REPLY,
      models: [MODEL],
      // Calls the tool while the conversation holds no result yet.
      toolUses: (body) => (body.tools?.length && !JSON.stringify(body.messages).includes('tool_result') ? [{ name: 'get_weather', input: { city: 'Paris' } }] : null),
    });
    s = await startServer({ env: { AGENT_DESK_ANTHROPIC_API_KEY: 'sk-fake', AGENT_DESK_ANTHROPIC_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    // The SDK sends its key as x-api-key.
    client = new Anthropic({ baseURL: s.url, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const lastSent = () => fake.requests.filter((r) => r.path === '/v1/messages').at(-1)!.body;

  it('messages.create: system and text in, a message out, stored as an execution', async () => {
    const { data: msg, response } = await client.messages
      .create({ model: MODEL, max_tokens: 256, system: [{ type: 'text', text: 'Be brief.' }], messages: [{ role: 'user', content: 'Say hello' }], stop_sequences: ['END'] })
      .withResponse();
    expect(msg).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', content: [{ type: 'text', text: REPLY }] });
    expect(msg.id).toBe(`msg_${response.headers.get('x-agent-desk-execution-id')}`);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    const sent = lastSent();
    expect(sent.system).toContain('Be brief.');
    expect(sent.stop_sequences).toEqual(['END']);
    const stored = await http(s, 'GET', `/api/agent-responses/${msg.id.slice(4)}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', output: REPLY, input: 'Say hello' });
  });

  it('a tool use round trip: tool_use out (non-stream), tool_result in', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client.messages.create({ model: MODEL, max_tokens: 256, messages: [question], tools, tool_choice: { type: 'any', disable_parallel_tool_use: true } });
    expect(lastSent().tools).toEqual([{ name: 'get_weather', description: 'Weather of a city', input_schema: tools[0].input_schema }]);
    expect(lastSent().tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
    expect(use).toMatchObject({ type: 'tool_use', id: expect.stringMatching(/^toolu_\d+_1$/), name: 'get_weather', input: { city: 'Paris' } });

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 256,
      tools,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Paris: 18 C' }] }],
    });
    expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: REPLY }] });
    const msgs = lastSent().messages;
    expect(msgs.slice(-2)).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Paris: 18 C' }] },
    ]);
  });

  it('messages.stream: text deltas, then a streamed tool_use whose input the SDK assembles', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Say hello' }] });
    let text = '';
    stream.on('text', (t) => (text += t));
    const final = await stream.finalMessage();
    expect(text).toBe(REPLY);
    expect(final).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: REPLY }] });

    const events: string[] = [];
    const withTool = client.messages.stream({ model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: 'Weather?' }], tools });
    withTool.on('streamEvent', (e) => events.push(e.type === 'content_block_delta' ? `${e.type}:${e.delta.type}` : e.type));
    const msg = await withTool.finalMessage();
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'get_weather', input: { city: 'Paris' } }]);
    expect(events).toEqual(['message_start', 'content_block_start', 'content_block_delta:input_json_delta', 'content_block_stop', 'message_delta', 'message_stop']);
  });

  it('takes a request as Claude Code sends it (beta query, cache_control, thinking, metadata, bearer key)', async () => {
    const res = await fetch(`${s.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219' },
      body: JSON.stringify({
        model: MODEL,
        max_tokens: 512,
        stream: true,
        metadata: { user_id: 'u' },
        thinking: { type: 'enabled', budget_tokens: 1024 },
        system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
        tools: [{ name: 'Bash', description: 'Run a command', input_schema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { command: { type: 'string' } }, additionalProperties: false }, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'list files', cache_control: { type: 'ephemeral' } }] }],
      }),
    });
    expect(res.status).toBe(200);
    const raw = await res.text();
    expect(raw).toContain('event: message_stop');
    expect(raw).not.toContain('event: error');
    expect(lastSent().tools[0].name).toBe('Bash');
  });

  it('passes image blocks to the model', async () => {
    const data = TINY_PNG.toString('base64');
    await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, { type: 'text', text: 'What is this?' }] }],
    });
    expect(lastSent().messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data } }] });
  });

  it('errors in Anthropic\'s shape: bad requests, a missing key, an unknown model', async () => {
    const bad = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } }] }] }).catch((e) => e);
    expect(bad).toBeInstanceOf(Anthropic.BadRequestError);
    expect(bad.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('messages.0.content.0.type') } });

    const noMax = await fetch(`${s.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }) });
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });

    const anon = await new Anthropic({ baseURL: s.url, apiKey: 'wrong-key', maxRetries: 0 }).messages.create({ model: MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(anon).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(anon.error.error.type).toBe('authentication_error');

    const unknown = await client.messages.create({ model: 'no-such-model', max_tokens: 8, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect(unknown.error.error.type).toBe('not_found_error');
  });

  it('lists models in Anthropic\'s shape for the Anthropic SDK, and counts tokens', async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain('chat');
    expect(ids).toContain(MODEL);
    const one = await client.models.retrieve(MODEL);
    expect(one).toMatchObject({ type: 'model', id: MODEL });
    const count = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hello there, how are you?' }] });
    expect(count.input_tokens).toBeGreaterThan(3);
    // Without anthropic-version, /v1/models keeps OpenAI's shape.
    const openai = await http(s, 'GET', '/v1/models');
    expect(openai.json.object).toBe('list');
  });
});
