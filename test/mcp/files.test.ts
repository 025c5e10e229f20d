import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { KEY, startServer, type TestServer } from '../openai/server.js';

const text = (r: any) => (r.content as any[]).map((c) => c.text).join('');

async function upload(s: TestServer, filename: string, content: string, process: boolean) {
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode(content)]), filename);
  form.append('process', String(process));
  const res = await fetch(`${s.url}/api/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; status: string };
}

describe('MCP file tools', () => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startServer();
    client = new Client({ name: 'files-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('lists files and reads a processed file\'s text', async () => {
    const body = 'Agent Desk notes.\n\nThe backup runs every night at 02:00 and keeps 14 copies.';
    const done = await upload(s, 'notes.txt', body, true);
    expect(done.status).toBe('completed');
    const waiting = await upload(s, 'later.md', '# Later', false);

    // The answer is GET /api/files's own (`data`), as every generated tool answers its operation's JSON.
    const listed = (await client.callTool({ name: 'list_files', arguments: {} })).structuredContent as any;
    expect(listed.data.map((f: any) => f.filename)).toEqual(['later.md', 'notes.txt']);

    const read = await client.callTool({ name: 'read_file', arguments: { file_id: done.id } });
    expect(read.isError).toBeFalsy();
    expect(text(read)).toContain('The backup runs every night at 02:00 and keeps 14 copies.');
    expect((read.structuredContent as any).total).toBeGreaterThan(0);

    const notYet = await client.callTool({ name: 'read_file', arguments: { file_id: waiting.id } });
    expect(notYet.isError).toBe(true);
    expect(text(notYet)).toContain(`POST /api/files/${waiting.id}/process`);

    const missing = await client.callTool({ name: 'read_file', arguments: { file_id: 999999 } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toBe('File not found');

    // A workspace that exists but is not the caller's (an id naming no workspace means the selected one).
    s.p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (4242, 'Someone else', 0)").run();
    const foreign = await client.callTool({ name: 'list_files', arguments: { workspace_id: 4242 } });
    expect(foreign.isError).toBe(true);
    expect(text(foreign)).toContain('not a member');
  });
});
