import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY, http, startServer, type TestServer } from '../openai/server.js';

async function connect(s: TestServer, key: string = KEY): Promise<Client> {
  const client = new Client({ name: 'agent-desk-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
  await client.connect(transport);
  return client;
}

const structured = (r: any) => r.structuredContent as any;

describe('MCP over Streamable HTTP (/mcp)', () => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startServer();
    client = await connect(s);
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('lists the tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['list_agents', 'search_memories', 'create_memory', 'update_memory', 'delete_memory', 'list_collections']) expect(names).toContain(n);
    const create = tools.find((t) => t.name === 'create_memory')!;
    expect(create.inputSchema.required).toEqual(['memory']);
  });

  it('creates a memory that the REST API then lists, updates and deletes it', async () => {
    const created = await client.callTool({ name: 'create_memory', arguments: { memory: 'The staging database lives on port 5433.' } });
    expect(created.isError).toBeFalsy();
    const mem = structured(created).memory;
    expect(mem).toMatchObject({ id: expect.any(Number), memory: 'The staging database lives on port 5433.', user_id: 1 });

    const listed = await http(s, 'GET', '/api/memories');
    expect(listed.status).toBe(200);
    expect(listed.json.memories.map((m: any) => m.id)).toContain(mem.id);

    const found = await client.callTool({ name: 'search_memories', arguments: { query: 'staging port' } });
    expect(structured(found).memories.map((m: any) => m.id)).toEqual([mem.id]);

    const updated = await client.callTool({ name: 'update_memory', arguments: { id: mem.id, memory: 'Staging DB: port 5434.' } });
    expect(structured(updated).memory.memory).toBe('Staging DB: port 5434.');
    expect(structured(updated).memory.collection.name).toBe('default');

    const deleted = await client.callTool({ name: 'delete_memory', arguments: { id: mem.id } });
    expect(deleted.isError).toBeFalsy();
    const after = await http(s, 'GET', '/api/memories');
    expect(after.json.memories.map((m: any) => m.id)).not.toContain(mem.id);
  });

  it('answers bad tool input with a readable tool error, never a crash', async () => {
    const missing = await client.callTool({ name: 'update_memory', arguments: { id: 999999, memory: 'x' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as any)[0].text).toBe('Memory not found!');

    const badCollection = await client.callTool({ name: 'create_memory', arguments: { memory: 'x', collection_id: 424242 } });
    expect(badCollection.isError).toBe(true);
    expect((badCollection.content as any)[0].text).toContain('The selected collection id is invalid.');

    const tooLong = await client.callTool({ name: 'create_memory', arguments: { memory: 'a'.repeat(32001) } });
    expect(tooLong.isError).toBe(true);
    const empty = await client.callTool({ name: 'create_memory', arguments: {} });
    expect(empty.isError).toBe(true);
    const listed = await http(s, 'GET', '/api/memories');
    expect(listed.json.memories.some((m: any) => m.memory === 'x' || m.memory.length > 32000)).toBe(false);
  });

  it('lists agents and collections, and reads a collection resource', async () => {
    const agents = structured(await client.callTool({ name: 'list_agents', arguments: {} }));
    // GET /api/agents's own answer (shape B: `data`), the agents whole.
    expect(agents.data.map((a: any) => a.slug)).toContain('chat');
    const chat = agents.data.find((a: any) => a.slug === 'chat');
    expect(chat.questions.map((q: any) => q.name)).toEqual(['temperature', 'model', 'tools', 'root_id', 'messages']);

    const col = await http(s, 'POST', '/api/memory-collections', { name: 'Recipes' });
    const colId = col.json.collection.id;
    await http(s, 'POST', '/api/memories', { memory: 'Pancakes: 2 eggs, 250 ml milk.', collection_id: colId });
    const cols = structured(await client.callTool({ name: 'list_collections', arguments: {} }));
    expect(cols.collections.map((c: any) => c.name)).toContain('Recipes');

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`collection://${colId}`);
    const read = await client.readResource({ uri: `collection://${colId}` });
    const body = JSON.parse((read.contents[0] as any).text);
    expect(body.collection.name).toBe('Recipes');
    expect(body.memories.map((m: any) => m.memory)).toEqual(['Pancakes: 2 eggs, 250 ml milk.']);
    await expect(client.readResource({ uri: 'collection://999999' })).rejects.toThrow(/Collection not found/);
  });

  it('refuses a client without a valid key', async () => {
    await expect(connect(s, 'wrong-key')).rejects.toThrow();
    const raw = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('keeps each caller to their own data', async () => {
    // A key of another user must not see user 1's memories.
    const userId = s.p.db.prepare("INSERT INTO users(name, created_at) VALUES ('Other', 0)").run().lastInsertRowid as number;
    const { key } = s.p.services.keys.create(Number(userId), 'other');
    const other = await connect(s, key);
    try {
      await http(s, 'POST', '/api/memories', { memory: 'secret of user one' });
      const found = structured(await other.callTool({ name: 'search_memories', arguments: { query: 'secret' } }));
      expect(found.memories).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('answers malformed JSON-RPC with a JSON-RPC error and a 4xx, never a 500', async () => {
    const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const body of ['garbage', '{}', '{"jsonrpc":"2.0"}']) {
      const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body });
      expect(res.status, body).toBe(400);
      expect((await res.json()).error.code).toBe(-32700);
    }
    const unknown = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: '{"jsonrpc":"2.0","id":1,"method":"no/such"}' });
    expect((await unknown.json()).error.code).toBe(-32601);
    const notAcceptable = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { ...headers, accept: 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
    expect(notAcceptable.status).toBe(406);
  });

  it('answers GET with 405 (stateless: no server-initiated stream)', async () => {
    const res = await fetch(`${s.url}/mcp`, { headers: { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    await res.body?.cancel();
  });
});
