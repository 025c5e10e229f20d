import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY, http, startServer, type TestServer } from '../openai/server.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

describe('MCP run_agent without a model runs on the default model', () => {
  let s: TestServer;
  let fake: FakeServer;
  let client: Client;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['llama-3.1-8b'], reply: 'From the default model.' });
    // No provider from the environment: the only one is added the way Settings adds it.
    s = await startServer({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const put = await http(s, 'PUT', '/api/settings/providers', { providers: [{ id: 'lmstudio', kind: 'openai-compatible', base_url: fake.url }] });
    expect(put.status).toBe(200);
    client = new Client({ name: 'default-model-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await fake?.close();
  });

  it('uses the first configured provider’s first model', async () => {
    const res = await client.callTool({ name: 'run_agent', arguments: { agent: 'chat', message: 'Hello' } });
    expect(res.isError).toBeFalsy();
    expect((res.content as { text: string }[]).map((c) => c.text).join('')).toBe('From the default model.');
    expect(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('llama-3.1-8b');
  });
});
