import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { KEY, http, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { TINY_PNG } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

/**
 * Function calling and images through /v1/chat/completions, driven by the `openai` SDK: the
 * client's tools reach the (fake) model, its calls come back as `tool_calls`, the client runs
 * them and sends the results, and the model answers with them.
 */
describe('/v1/chat/completions: client tools and images (openai SDK)', () => {
  let s: TestServer & { fake: FakeServer };
  let client: OpenAI;
  const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
    { type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
  ];
  const PNG_URL = `data:image/png;base64,${TINY_PNG.toString('base64')}`;
  const weather = (city: string) => `${city}: 18 C, light rain`;

  beforeAll(async () => {
    s = await startWithFake({
      reply: 'It is 18 C and raining in Paris.',
      toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }],
      models: ['gpt-4o-mini', 'gpt-3.5-turbo'],
    });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(() => s?.close());

  const lastRequest = () => s.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body;

  it('offers the client tools to the model and returns its call (non-stream), then answers with the result', async () => {
    const question: OpenAI.Chat.Completions.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' };
    const { data: first, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [question], tools, tool_choice: 'auto', parallel_tool_calls: false }).withResponse();
    const sent = lastRequest();
    expect(sent.tools.map((t: any) => t.function.name)).toEqual(['get_weather', 'get_time']);
    expect(sent.tools[0].function.parameters).toEqual(tools[0].type === 'function' && tools[0].function.parameters);
    expect(sent.tool_choice).toBe('auto');
    expect(sent.parallel_tool_calls).toBe(false);

    const executionId = response.headers.get('x-agent-desk-execution-id');
    const choice = first.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([{ id: `call_${executionId}_1`, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }]);
    // The call is part of the stored execution, as a step of the client.
    const stored = await http(s, 'GET', `/api/agent-responses/${executionId}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', steps: [{ id: 1, server_id: null, server: 'client', tool: 'get_weather', arguments: { city: 'Paris' } }] });

    const call = choice.message.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    const second = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      tools,
      messages: [question, choice.message, { role: 'tool', tool_call_id: call.id, content: weather(JSON.parse(call.function.arguments).city) }],
    });
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'It is 18 C and raining in Paris.' } });
    const followUp = lastRequest().messages;
    expect(followUp.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: call.id, content: 'Paris: 18 C, light rain' },
    ]);
  });

  it('streams the call as OpenAI does (id, type and name first, then argument fragments); the SDK assembles it', async () => {
    const stream = client.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools, tool_choice: 'required' });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    stream.on('chunk', (c) => chunks.push(c));
    const final = await stream.finalChatCompletion();
    expect(lastRequest().tool_choice).toBe('required');
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toEqual({ index: 0, id: expect.stringMatching(/^call_\d+_1$/), type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(deltas.slice(1).every((d) => d.index === 0 && d.id === undefined && d.function?.name === undefined)).toBe(true);
    expect(deltas.slice(1).map((d) => d.function!.arguments).join('')).toBe('{"city":"Paris"}');
    expect(chunks.filter((c) => c.choices[0]?.finish_reason).map((c) => c.choices[0].finish_reason)).toEqual(['tool_calls']);
    const msg = final.choices[0].message;
    expect(msg.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });

    // The follow-up, streamed: plain text and `stop`.
    const call = msg.tool_calls![0] as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    const again = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'Weather in Paris?' }, msg, { role: 'tool', tool_call_id: call.id, content: weather('Paris') }],
    });
    const answer = await again.finalChatCompletion();
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'It is 18 C and raining in Paris.' } });
  });

  it('passes a named tool_choice through, and tool_choice none offers the client tools to no model', async () => {
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Time?' }], tools, tool_choice: { type: 'function', function: { name: 'get_time' } } });
    expect(lastRequest().tool_choice).toEqual({ type: 'function', function: { name: 'get_time' } });
    const none = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], tools, tool_choice: 'none' });
    expect(lastRequest().tools).toBeUndefined();
    expect(none.choices[0].finish_reason).toBe('stop');
  });

  it('passes image_url parts to a model that reads images, and refuses them with a 400 naming the model that does not', async () => {
    const res = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } }] }],
    });
    expect(res.choices[0].finish_reason).toBe('stop');
    expect(lastRequest().messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_URL, detail: 'low' } }] });

    const chats = () => s.fake.requests.filter((r) => r.path === '/v1/chat/completions').length;
    const before = chats();
    const err = await client.chat.completions
      .create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.param).toBe('messages');
    expect(err.code).toBe('image_unsupported');
    expect(err.message).toContain('gpt-3.5-turbo');
    expect(chats()).toBe(before); // the model was never called
  });
});

describe('/v1/chat/completions: a call to a client tool that was not offered', () => {
  let s: TestServer & { fake: FakeServer };
  let client: OpenAI;
  beforeAll(async () => {
    s = await startWithFake({
      reply: 'I cannot look that up.',
      // An ill-behaved model: calls get_weather whatever it was offered, until it has seen a tool result.
      toolCalls: (body: any) => (body.messages.some((m: any) => m.role === 'tool') ? null : [{ name: 'get_weather', arguments: '{"city":"Paris"}' }]),
      models: ['gpt-4o-mini'],
    });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(() => s?.close());

  it('under tool_choice none is not handed back to the client: the run refuses it and answers', async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }];
    const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Weather?' }], tools, tool_choice: 'none' }).withResponse();
    expect(data.choices[0].finish_reason).toBe('stop');
    expect(data.choices[0].message.tool_calls ?? []).toEqual([]);
    expect(data.choices[0].message.content).toBe('I cannot look that up.');
    const id = response.headers.get('x-agent-desk-execution-id');
    const stored = (await http(s, 'GET', `/api/agent-responses/${id}`)).json as any;
    const steps = (stored.data ?? stored).steps as { tool: string; status: string }[];
    expect(steps).toEqual([expect.objectContaining({ tool: 'get_weather', status: 'denied' })]);
  });
});
