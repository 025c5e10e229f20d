import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { KEY, http, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { limit } from '../fixtures/until.js';

/**
 * /v1/responses with the `openai` SDK's responses.create and responses.stream, against the
 * platform whose provider is the fake OpenAI-compatible server: each response is an execution.
 */
describe('/v1/responses (openai SDK)', () => {
  let s: TestServer & { fake: FakeServer };
  let client: OpenAI;
  const REPLY = 'Paris is the capital of France.';
  const tools: OpenAI.Responses.FunctionTool[] = [
    { type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: false },
  ];
  beforeAll(async () => {
    s = await startWithFake({ reply: REPLY, toolCalls: [{ name: 'get_weather', arguments: '{"city":"Paris"}' }] });
    client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(20_000) });
  });
  afterAll(() => s?.close());

  const lastChat = () => s.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body;

  it('responses.create: a string input with instructions answers a completed response, stored as an execution', async () => {
    const res = await client.responses.create({ model: 'gpt-4o-mini', instructions: 'Answer in one sentence.', input: 'What is the capital of France?' });
    expect(res.id).toMatch(/^resp_\d+$/);
    expect(res.status).toBe('completed');
    expect(res.output_text).toBe(REPLY);
    expect(res.output).toEqual([{ type: 'message', id: expect.any(String), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: REPLY, annotations: [], logprobs: [] }] }]);
    expect(res.usage!.total_tokens).toBe(res.usage!.input_tokens + res.usage!.output_tokens);
    const system = lastChat().messages.find((m: any) => m.role === 'system').content;
    expect(system).toContain('Answer in one sentence.');

    const stored = await http(s, 'GET', `/api/agent-responses/${res.id.slice(5)}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', output: REPLY, input: 'What is the capital of France?' });
    const again = await client.responses.retrieve(res.id);
    expect(again).toMatchObject({ id: res.id, status: 'completed', output_text: REPLY });
  });

  it('a function tool round trip: function_call out, function_call_output in with previous_response_id', async () => {
    const first = await client.responses.create({ model: 'gpt-4o-mini', input: [{ role: 'user', content: 'Weather in Paris?' }], tools });
    expect(lastChat().tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call')!;
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    expect(call.call_id).toBe(`call_${first.id.slice(5)}_1`);
    expect(first.output.some((o) => o.type === 'message')).toBe(false);

    const second = await client.responses.create({
      model: 'gpt-4o-mini',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Paris: 18 C, light rain' }],
      tools,
    });
    expect(second.output_text).toBe(REPLY);
    // The model saw the whole session: the question, its own call, and the result.
    const msgs = lastChat().messages;
    expect(msgs.find((m: any) => m.role === 'user').content).toBe('Weather in Paris?');
    expect(msgs.slice(-2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: call.call_id, content: 'Paris: 18 C, light rain' },
    ]);
    // One session: the follow-up's root is the first response's execution.
    const stored = await http(s, 'GET', `/api/agent-responses/${second.id.slice(5)}`);
    expect(stored.json.root_id).toBe(Number(first.id.slice(5)));

    // Without previous_response_id, the client sends the whole history (stateless).
    const stateless = await client.responses.create({
      model: 'gpt-4o-mini',
      input: [{ role: 'user', content: 'Weather in Paris?' }, call, { type: 'function_call_output', call_id: call.call_id, output: 'sunny' }],
      tools,
    });
    expect(stateless.output_text).toBe(REPLY);
  });

  it('responses.stream: the Responses event types in order, with sequence numbers; finalResponse assembles them', async () => {
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'Capital of France?' });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(REPLY);
    expect(final.status).toBe('completed');
    const types = events.map((e) => e.type);
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    const deltas = events.filter((e): e is OpenAI.Responses.ResponseTextDeltaEvent => e.type === 'response.output_text.delta');
    expect(deltas.map((d) => d.delta).join('')).toBe(REPLY);
    expect(types.slice(4, -4).every((t) => t === 'response.output_text.delta')).toBe(true);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  });

  it('responses.stream with a function tool: the function_call item and its arguments events', async () => {
    const stream = client.responses.stream({ model: 'gpt-4o-mini', input: 'Weather in Paris?', tools, tool_choice: 'required' });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    const final = await stream.finalResponse();
    expect(lastChat().tool_choice).toBe('required');
    expect(types).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done', 'response.completed',
    ]);
    expect(final.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' })]);
  });

  it('refuses what it cannot honour with a 400 naming the parameter, and an unknown previous response with a 404', async () => {
    const bad = async (body: object) => {
      const r = await fetch(`${s.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', ...body }) });
      return { status: r.status, json: (await r.json()) as any };
    };
    expect((await bad({ input: 'x', tools: [{ type: 'web_search' }] })).json.error.param).toBe('tools[0].type');
    expect((await bad({ input: [{ type: 'item_reference', id: 'msg_1' }] })).json.error.param).toBe('input[0].type');
    expect((await bad({ input: [{ type: 'function_call_output', call_id: 'call_9', output: 'x' }] })).json.error.param).toBe('input[0].tool_call_id');
    expect((await bad({ input: 'x', text: { format: { type: 'json_object' } } })).json.error.param).toBe('text.format');
    const missing = await bad({ input: 'x', previous_response_id: 'resp_999999' });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'previous_response_not_found', param: 'previous_response_id' });
    const err = await client.responses.retrieve('resp_nope').catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('raw SSE: named events whose data carries the same type', async () => {
    const res = await fetch(`${s.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'Hi', stream: true }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const blocks = (await res.text()).split('\n\n').filter(Boolean);
    const data = blocks.map((b) => {
      const [event, line] = b.split('\n');
      const d = JSON.parse(line.replace(/^data: /, ''));
      expect(event).toBe(`event: ${d.type}`);
      return d;
    });
    expect(data.at(-1).type).toBe('response.completed');
    expect(data.at(-1).response.output[0].content[0].text).toBe(REPLY);
  });
});
