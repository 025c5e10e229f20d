import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { KEY, http, lastSystemPrompt, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

/**
 * The real `openai` SDK against a real server whose `openai` provider is the fake model server:
 * every answer below went through the execution engine and the fake's HTTP/SSE.
 */
describe('OpenAI-compatible chat completions, driven by the openai SDK', () => {
  let s: TestServer & { fake: FakeServer };
  let client: OpenAI;
  const REPLY = 'Paris is the capital of France.';
  beforeAll(async () => {
    s = await startWithFake({ reply: REPLY });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(() => s?.close());

  it('answers a non-stream completion in OpenAI shape, stored as an execution', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is the capital of France?' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('gpt-4o-mini');
    expect(data.choices).toHaveLength(1);
    expect(data.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: REPLY } });
    expect(data.usage!.completion_tokens).toBeGreaterThan(0);
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);

    const executionId = response.headers.get('x-agent-desk-execution-id');
    expect(data.id).toBe(`chatcmpl-${executionId}`);
    const stored = await http(s, 'GET', `/api/agent-responses/${executionId}`);
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ id: Number(executionId), status: 'succeeded', output: REPLY, input: 'What is the capital of France?', model: 'gpt-4o-mini' });
    expect(stored.json.template_id).toBe(1); // the seeded chat agent ran the raw model
    expect(stored.json.credits).toBeGreaterThan(0.01);
  });

  it('streams OpenAI chunks: role first, content deltas, finish_reason, usage, [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Capital of France?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.every((c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-4o-mini')).toBe(true);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe(REPLY);
    const finish = chunks.filter((c) => c.choices[0]?.finish_reason);
    expect(finish).toHaveLength(1);
    expect(finish[0].choices[0].finish_reason).toBe('stop');
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(0);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);

    const stored = await http(s, 'GET', `/api/agent-responses/${chunks[0].id.replace('chatcmpl-', '')}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', output: REPLY });
  });

  it('ends the raw SSE with data: [DONE] and sends no usage chunk unless asked', async () => {
    const res = await fetch(`${s.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const raw = await res.text();
    const frames = raw.split('\n\n').filter(Boolean);
    expect(frames.every((f) => f.startsWith('data: '))).toBe(true);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const parsed = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)));
    expect(parsed.some((c) => 'usage' in c)).toBe(false);
    expect(parsed[0].choices[0].delta).toEqual({ role: 'assistant', content: '', refusal: null });
  });

  it('passes temperature, max_tokens and stop through, and maps system messages into the instructions', async () => {
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Answer like a pirate.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Ahoy!' },
        { role: 'developer', content: 'Keep it short.' },
        { role: 'user', content: 'Where is Paris?' },
      ],
      temperature: 0.3,
      max_tokens: 50,
      stop: ['END'],
    });
    const body = s.fake.requests.at(-1)!.body;
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(50);
    expect(body.stop).toEqual(['END']);
    const sys = lastSystemPrompt(s.fake);
    // The agent's own instructions stay; the client's system and developer text is added, in order.
    expect(sys).toContain('You are a helpful, precise assistant.');
    expect(sys.indexOf('Answer like a pirate.')).toBeGreaterThan(sys.indexOf('You are a helpful, precise assistant.'));
    expect(sys.indexOf('Keep it short.')).toBeGreaterThan(sys.indexOf('Answer like a pirate.'));
    const convo = body.messages.filter((m: any) => m.role !== 'system').map((m: any) => [m.role, m.content]);
    expect(convo.slice(-3)).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Ahoy!'],
      ['user', 'Where is Paris?'],
    ]);
    // max_completion_tokens is the newer name of the same budget.
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], max_completion_tokens: 7 });
    expect(s.fake.requests.at(-1)!.body.max_tokens).toBe(7);
  });

  it('reports finish_reason length when the token budget ended the answer', async () => {
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], max_tokens: 3 });
    // The fake ignores the budget and sends 6 tokens; the engine's usage says the budget was used up.
    expect(res.usage!.completion_tokens).toBeGreaterThanOrEqual(3);
    expect(res.choices[0].finish_reason).toBe('length');
  });

  it('runs an agent named by its slug with its instructions and the caller\'s memories', async () => {
    const agent = await http(s, 'POST', '/api/agents', { title: 'Release helper', slug: 'release-helper', type: 'chat', instructions: 'You help with releases. Mention codenames.' });
    expect(agent.status).toBe(201);
    await http(s, 'POST', '/api/memories', { memory: 'The release codename is BLUEBIRD.' });
    const ask = () => client.chat.completions.create({ model: 'release-helper', messages: [{ role: 'user', content: 'What is the release codename?' }] });

    // No model answer and no default model set: the first configured provider's first listed model.
    const first = await ask();
    expect(first.choices[0].message.content).toBe(REPLY);
    expect(s.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('gpt-4o-mini');

    // A default model set in Settings wins.
    s.p.services.providers.update({ default_model: 'gpt-5' });
    const res = await ask();
    s.p.services.providers.update({ default_model: null });
    expect(s.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('gpt-5');
    expect(res.model).toBe('release-helper');
    expect(res.choices[0].message.content).toBe(REPLY);
    const prompt = JSON.stringify(s.fake.prompts().at(-1));
    expect(prompt).toContain('You help with releases. Mention codenames.');
    expect(prompt).toContain('BLUEBIRD');
    const stored = await http(s, 'GET', `/api/agent-responses/${res.id.replace('chatcmpl-', '')}`);
    expect(stored.json.template_id).toBe(agent.json.id);
  });

  it('serves one agent at /api/agents/{id}/openai, model optional', async () => {
    const agent = await http(s, 'POST', '/api/agents', { title: 'Fixed', type: 'chat', instructions: 'FIXED-AGENT-INSTRUCTIONS' });
    // Which model runs an agent without a model answer: the default model of the providers' settings.
    const put = s.p.services.providers.update({ default_model: 'gpt-5' });
    expect(put.default_model).toBe('gpt-5');
    const raw = await http(s, 'POST', `/api/agents/${agent.json.id}/openai/chat/completions`, { messages: [{ role: 'user', content: 'hi' }] });
    expect(raw.status).toBe(200);
    expect(raw.json.model).toBe(agent.json.slug);
    expect(s.fake.requests.at(-1)!.body.model).toBe('gpt-5');
    expect(lastSystemPrompt(s.fake)).toContain('FIXED-AGENT-INSTRUCTIONS');

    const fixed = new OpenAI({ baseURL: `${s.url}/api/agents/${agent.json.id}/openai`, apiKey: KEY, maxRetries: 0 });
    const models = await fixed.models.list();
    expect(models.data.map((m) => m.id)).toEqual([agent.json.slug]);
    const streamed = await fixed.chat.completions.create({ model: agent.json.slug, messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const c of streamed) text += c.choices[0]?.delta?.content ?? '';
    expect(text).toBe(REPLY);

    // Another raw model on the agent's own URL runs that agent with it; another agent's slug is refused.
    await http(s, 'POST', `/api/agents/${agent.json.id}/openai/chat/completions`, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(s.fake.requests.at(-1)!.body.model).toBe('gpt-4o-mini');
    expect(lastSystemPrompt(s.fake)).toContain('FIXED-AGENT-INSTRUCTIONS');
    const other = await http(s, 'POST', `/api/agents/${agent.json.id}/openai/chat/completions`, { model: 'chat', messages: [{ role: 'user', content: 'hi' }] });
    expect(other.status).toBe(400);
    expect(other.json.error.param).toBe('model');
    s.p.services.providers.update({ default_model: null });
  });

  it('lists agents and the providers\' raw models at /v1/models', async () => {
    const list = await client.models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toContain('chat');
    const chat = list.data.find((m) => m.id === 'chat')!;
    expect(chat).toMatchObject({ object: 'model', owned_by: 'agent-desk' });
    // The fake provider lists gpt-4o-mini and gpt-5, configured as provider `openai`.
    expect(list.data.filter((m) => m.owned_by === 'openai').map((m) => m.id)).toEqual(['gpt-4o-mini', 'gpt-5']);
    expect(ids.indexOf('chat')).toBeLessThan(ids.indexOf('gpt-5'));
    const one = await client.models.retrieve('chat');
    expect(one.id).toBe('chat');
  });
});
