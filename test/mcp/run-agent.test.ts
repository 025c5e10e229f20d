import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY, http, lastSystemPrompt, startWithFake, type TestServer } from '../openai/server.js';
import type { FakeServer } from '../fixtures/fake-openai.js';

const text = (r: any) => (r.content as any[]).map((c) => c.text).join('');

describe('MCP run_agent runs agents through the execution engine', () => {
  let s: TestServer & { fake: FakeServer };
  let client: Client;
  beforeAll(async () => {
    s = await startWithFake({ reply: 'Answer from the agent.' });
    client = new Client({ name: 'run-agent-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('returns the answer text, and the execution is stored like any other', async () => {
    const res = await client.callTool({ name: 'run_agent', arguments: { agent: 'chat', message: 'Say something', model: 'gpt-4o-mini' } });
    expect(res.isError).toBeFalsy();
    expect(text(res)).toBe('Answer from the agent.');
    const info = res.structuredContent as any;
    expect(info).toMatchObject({ agent: 'chat', status: 'succeeded', output: 'Answer from the agent.' });
    const stored = await http(s, 'GET', `/api/agent-responses/${info.execution_id}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', input: 'Say something', output: 'Answer from the agent.', template_id: 1, model: 'gpt-4o-mini' });
    expect(lastSystemPrompt(s.fake)).toContain('You are a helpful, precise assistant.');
    const again = await client.callTool({ name: 'get_agent_response', arguments: { id: info.execution_id } });
    // The text is the output; the structured content is GET /api/agent-responses/{id}'s answer.
    expect(text(again)).toBe('Answer from the agent.');
    expect(again.structuredContent).toMatchObject({ id: info.execution_id, status: 'succeeded', output: 'Answer from the agent.' });
    const missing = await client.callTool({ name: 'get_agent_response', arguments: { id: 999999 } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('Agent response not found');
  });

  it('runs an agent by id, and a text agent takes the message as its task', async () => {
    s.p.services.providers.update({ default_model: 'gpt-4o-mini' });
    try {
      const agents = await http(s, 'GET', '/api/agents?q=summarizer');
      const summarizer = agents.json.data.find((a: any) => a.slug === 'summarizer');
      // `length` is a required select left out: it takes its first option (CONTRACT.md "Omitted answers").
      const options = summarizer.questions.find((q: any) => q.name === 'length').options;
      const omitted = await client.callTool({ name: 'run_agent', arguments: { agent: String(summarizer.id), message: 'A long text about rivers.' } });
      expect(omitted.isError).toBeFalsy();
      expect(JSON.stringify(s.fake.prompts().at(-1))).toContain('A long text about rivers.');
      // A value outside the options is still named in a readable error, nothing invented.
      const bad = await client.callTool({ name: 'run_agent', arguments: { agent: String(summarizer.id), message: 'Rivers.', answers: { length: 'epic' } } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/length/);
      const ok = await client.callTool({ name: 'run_agent', arguments: { agent: String(summarizer.id), message: 'A long text about rivers.', answers: { length: options[0] } } });
      expect(ok.isError).toBeFalsy();
    } finally {
      s.p.services.providers.update({ default_model: null });
    }
  });

  it('reports failures as tool errors with the execution id', async () => {
    const unknown = await client.callTool({ name: 'run_agent', arguments: { agent: 'no-such-agent', message: 'hi' } });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('Agent not found');

    s.fake.set({ fail: 'status', failMessage: 'model exploded' });
    try {
      const failed = await client.callTool({ name: 'run_agent', arguments: { agent: 'chat', message: 'hi', model: 'gpt-4o-mini' } });
      expect(failed.isError).toBe(true);
      expect(text(failed)).toContain('model exploded');
      const id = (failed.structuredContent as any).execution_id;
      expect((await http(s, 'GET', `/api/agent-responses/${id}`)).json.status).toBe('failed');
    } finally {
      s.fake.set({ fail: null });
    }
  });
});
