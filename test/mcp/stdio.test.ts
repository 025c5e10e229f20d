import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tempDir } from '../api/helpers.js';
import { http, startServer } from '../openai/server.js';
import { limit } from '../fixtures/until.js';

/**
 * `npm run mcp` as an MCP client launches it: a child process speaking JSON-RPC on stdio, on the
 * same data dir the API serves. What it writes must show through the HTTP API.
 */
describe('MCP over stdio (npm run mcp)', () => {
  const dir = tempDir('agent-desk-mcp-stdio-');
  let client: Client;
  let stderr = '';
  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['tsx', 'src-main/platform/cli/mcp-stdio.ts', '--data-dir', dir],
      cwd: process.cwd(),
      env: { ...(process.env as Record<string, string>), AGENT_DESK_LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'agent-desk-stdio-test', version: '1.0.0' });
    await client.connect(transport);
  }, limit(60_000));
  afterAll(async () => {
    await client?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same tools as /mcp and keeps stdout for the protocol', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_agents', 'create_memory', 'search_memories', 'list_collections']));
    // Logs went to stderr: the log line is there, and the protocol above still parsed.
    expect(stderr).toContain('Agent Desk MCP server on stdio');
  });

  it('creates a memory that GET /api/memories shows on the same data dir', async () => {
    const res = await client.callTool({ name: 'create_memory', arguments: { memory: 'Written over stdio.' } });
    expect(res.isError).toBeFalsy();
    const id = (res.structuredContent as any).memory.id;
    // The stdio server still holds the database: a second platform opens the same WAL database.
    const s = await startServer({ dataDir: dir });
    try {
      const listed = await http(s, 'GET', '/api/memories');
      expect(listed.status).toBe(200);
      expect(listed.json.memories).toContainEqual(expect.objectContaining({ id, memory: 'Written over stdio.' }));
    } finally {
      await s.running.close();
    }
  });
});
