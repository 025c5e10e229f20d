import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { KEY, http, startWithFake, type TestServer } from './server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { addServer, everythingStdio, toolAgent } from '../tools/helpers.js';
import { limit } from '../fixtures/until.js';

const toolResults = (body: any): any[] => (body?.messages ?? []).filter((m: any) => m.role === 'tool');

/**
 * One agent through every door: its instructions and its own MCP tool (run inside, as a step)
 * whether it is called through /v1/chat/completions, /v1/responses or /v1/messages; the client's
 * tool goes back to the client. And the `ai` SDK running a client-side tool loop against /v1.
 */
describe('the same agent through every /v1 door, and the ai SDK tool loop', () => {
  let s: TestServer & { fake: FakeServer };
  let slug: string;
  beforeAll(async () => {
    s = await startWithFake({ reply: 'Done.' });
    const server = await addServer(s.p, everythingStdio());
    const id = await toolAgent(s.p, [server.id], { instructions: 'You are the weather desk. Use your tools.' });
    slug = (await http(s, 'GET', `/api/agents/${id}`)).json.slug;
  }, limit(60_000));
  afterAll(() => s?.close());

  const chats = () => s.fake.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body);

  it('chat completions: the agent\'s MCP tool runs inside as a step, then the client\'s tool comes back to the client', async () => {
    // First the agent's own echo tool, then (with its result) the client's get_weather.
    s.fake.set({
      toolCalls: (body) => {
        const results = toolResults(body);
        if (!results.length) return [{ name: 'echo', arguments: '{"message":"checking"}' }];
        if (results.length === 1) return [{ name: 'get_weather', arguments: '{"city":"Oslo"}' }];
        return null;
      },
    });
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0, timeout: limit(30_000) });
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const { data, response } = await client.chat.completions.create({ model: slug, messages: [{ role: 'user', content: 'Weather in Oslo?' }], tools }).withResponse();
    expect(data.choices[0].finish_reason).toBe('tool_calls');
    expect(data.choices[0].message.tool_calls).toEqual([{ id: expect.stringMatching(/^call_\d+_2$/), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }]);
    const first = chats().at(-2)!;
    expect(first.tools.map((t: any) => t.function.name).sort()).toEqual(expect.arrayContaining(['echo', 'get_weather']));
    expect(first.messages[0].content).toContain('You are the weather desk.');
    expect(toolResults(chats().at(-1))[0].content).toBe('Echo: checking');

    const stored = await http(s, 'GET', `/api/agent-responses/${response.headers.get('x-agent-desk-execution-id')}`);
    expect(stored.json.steps).toEqual([
      expect.objectContaining({ id: 1, server: 'everything', tool: 'echo', status: 'succeeded', result: 'Echo: checking' }),
      expect.objectContaining({ id: 2, server_id: null, server: 'client', tool: 'get_weather', arguments: { city: 'Oslo' } }),
    ]);
  });

  it('responses and messages run the same agent (its instructions, stored under it)', async () => {
    s.fake.set({ toolCalls: undefined });
    const openai = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const res = await openai.responses.create({ model: slug, input: 'Hello' });
    expect(res.output_text).toBe('Done.');
    expect(chats().at(-1)!.messages[0].content).toContain('You are the weather desk.');

    const anthropic = new Anthropic({ baseURL: s.url, apiKey: KEY, maxRetries: 0 });
    const msg = await anthropic.messages.create({ model: slug, max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] });
    expect(msg.content).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(chats().at(-1)!.messages[0].content).toContain('You are the weather desk.');

    const agentId = (await http(s, 'GET', `/api/agent-responses/${res.id.slice(5)}`)).json.template_id;
    expect((await http(s, 'GET', `/api/agent-responses/${msg.id.slice(4)}`)).json.template_id).toBe(agentId);
  });

  it('the ai SDK (openai-compatible) runs a client-side tool loop against /v1: generateText and streamText with stopWhen', async () => {
    s.fake.set({
      toolCalls: (body) => (body.tools?.length && !toolResults(body).length ? [{ name: 'weather', arguments: '{"city":"Paris"}' }] : null),
      tokens: (body) => ['It is ', String(toolResults(body).at(-1)?.content ?? 'unknown')],
    });
    const desk = createOpenAICompatible({ name: 'agent-desk', baseURL: `${s.url}/v1`, apiKey: KEY });
    const calls: string[] = [];
    const weather = tool({
      description: 'Weather of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        calls.push(city);
        return `${city}: 18 C`;
      },
    });

    const gen = await generateText({ model: desk('gpt-4o-mini'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Paris?' });
    expect(calls).toEqual(['Paris']);
    expect(gen.steps.length).toBe(2);
    expect(gen.steps[0].finishReason).toBe('tool-calls');
    expect(gen.text).toBe('It is Paris: 18 C');

    const streamed = streamText({ model: desk('gpt-4o-mini'), tools: { weather }, stopWhen: stepCountIs(3), prompt: 'Weather in Paris?' });
    let text = '';
    for await (const t of streamed.textStream) text += t;
    expect(calls).toEqual(['Paris', 'Paris']);
    expect(text).toBe('It is Paris: 18 C');
    expect((await streamed.steps).map((st) => st.finishReason)).toEqual(['tool-calls', 'stop']);
  });
});
