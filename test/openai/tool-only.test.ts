import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withFake } from '../execution/helpers.js';

/**
 * A conversation of only a tool call and its result (no user message), as a client sends it to
 * get the result summed up, runs normally on every door: the model gets the call and the result
 * as sent, the answer comes back, and the execution is stored as succeeded.
 */
describe('a conversation of only a tool call and its result', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'It is 18 degrees in Paris.' });
  });
  afterAll(() => env?.close());

  /** The turns the model was sent last, without the system message. */
  const sent = () => (env.fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.messages as { role: string }[]).filter((m) => m.role !== 'system');
  const stored = async (id: number) => (await call(env.p, 'GET', `/api/agent-responses/${id}`)).json;

  it('/v1/chat/completions', async () => {
    const r = await call(env.p, 'POST', '/v1/chat/completions', {
      body: {
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
        messages: [
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '18 degrees' },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.choices[0].message.content).toBe('It is 18 degrees in Paris.');
    expect(sent()).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18 degrees' },
    ]);
    const list = (await call(env.p, 'GET', '/api/agent-responses')).json.data;
    expect(list[0].status).toBe('succeeded');
  });

  it('/v1/responses', async () => {
    const r = await call(env.p, 'POST', '/v1/responses', {
      body: {
        model: 'gpt-4o-mini',
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }],
        input: [
          { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Lyon"}' },
          { type: 'function_call_output', call_id: 'call_2', output: '21 degrees' },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe('completed');
    expect(sent().map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect((await stored(Number(r.json.id.slice(5)))).status).toBe('succeeded');
  });

  it('/v1/messages', async () => {
    const r = await call(env.p, 'POST', '/v1/messages', {
      headers: { 'anthropic-version': '2023-06-01' },
      body: {
        model: 'gpt-4o-mini',
        max_tokens: 200,
        tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Nice' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '24 degrees' }] },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.content).toEqual([{ type: 'text', text: 'It is 18 degrees in Paris.' }]);
    expect(sent().map((m) => m.role)).toEqual(['assistant', 'tool']);
  });
});
