import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY, http, startWithFake, type TestServer } from '../openai/server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';
import { parseSSE } from '../execution/helpers.js';
import { EVERYTHING, lastToolResult } from './helpers.js';

/** The same tool-using agent from every door: the same steps stored. */
describe('an agent with MCP tools, from every door', () => {
  let s: TestServer & { fake: FakeServer };
  let mcp: Client;
  const SLUG = 'echo-agent';

  beforeAll(async () => {
    s = await startWithFake({
      toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'echo', arguments: '{"message":"from every door"}' }] : null),
      tokens: (b) => ['Tool: ', lastToolResult(b) ?? 'none'],
    });
    const server = await http(s, 'POST', '/api/mcp-servers', { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'auto' });
    expect(server.status).toBe(201);
    const agent = await http(s, 'POST', '/api/agents', {
      title: 'Echo agent', slug: SLUG, type: 'chat', instructions: 'Use echo.',
      questions: [{ type: 'array', name: 'messages', description: 'Chat history', required: true }],
      tool_servers: [{ server_id: server.json.id, tools: ['echo'] }],
    });
    expect(agent.status).toBe(201);
    expect(agent.json.tool_servers).toEqual([{ server_id: server.json.id, tools: ['echo'] }]);
    s.p.services.providers.update({ default_model: 'gpt-4o-mini' });
    mcp = new Client({ name: 'doors-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  const comparable = (steps: any[]) => steps.map(({ started_at, duration_ms, ...rest }) => (expect(started_at).toMatch(/Z$/), expect(duration_ms).toBeGreaterThanOrEqual(0), rest));
  const expected = [{ id: 1, type: 'tool_call', server: 'everything', server_id: expect.any(Number), tool: 'echo', arguments: { message: 'from every door' }, result: 'Echo: from every door', error: null, status: 'succeeded', approved: 'auto' }];
  const agentId = async () => (await http(s, 'GET', `/api/agents?q=Echo agent`)).json.data[0].id;

  it('POST /api/agents/{id}/execute with stream, and with wait_execution', async () => {
    const id = await agentId();
    const streamed = await http(s, 'POST', `/api/agents/${id}/execute`, { messages: [{ role: 'user', content: 'go' }], stream: true });
    const events = parseSSE(streamed.text);
    expect(events.at(-1).status).toBe('completed');
    expect(comparable(events.at(-1).steps)).toEqual(expected);
    const stored = await http(s, 'GET', `/api/agent-responses/${events.at(-1).id}`);
    expect(comparable(stored.json.steps)).toEqual(expected);
    expect(stored.json.output).toBe('Tool: Echo: from every door');

    const waited = await http(s, 'POST', `/api/agents/${id}/execute`, { messages: [{ role: 'user', content: 'go' }], wait_execution: true });
    expect(waited.json.responses[0].status).toBe('succeeded');
    expect(comparable(waited.json.responses[0].steps)).toEqual(expected);
  });

  it('/v1/chat/completions with the openai SDK (the agent slug as model)', async () => {
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model: SLUG, messages: [{ role: 'user', content: 'go' }] }).withResponse();
    expect(data.choices[0].message.content).toBe('Tool: Echo: from every door');
    const execId = response.headers.get('x-agent-desk-execution-id');
    const stored = await http(s, 'GET', `/api/agent-responses/${execId}`);
    expect(comparable(stored.json.steps)).toEqual(expected);

    const stream = await client.chat.completions.create({ model: SLUG, messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Tool: Echo: from every door');
  });

  it("the MCP server's run_agent with the MCP SDK client", async () => {
    const res = await mcp.callTool({ name: 'run_agent', arguments: { agent: SLUG, message: 'go' } });
    expect(res.isError).toBeFalsy();
    const info = res.structuredContent as any;
    expect(info.output).toBe('Tool: Echo: from every door');
    const stored = await http(s, 'GET', `/api/agent-responses/${info.execution_id}`);
    expect(comparable(stored.json.steps)).toEqual(expected);
    expect(stored.json.credits).toBeGreaterThan(0);
  });
});
