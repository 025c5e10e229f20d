import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { call, closePlatform, makePlatform, tempDir } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { EVERYTHING, addServer, everythingStdio, filesystemStdio, startEverythingHttp, until } from './helpers.js';
import { limit } from '../fixtures/until.js';

let p: Platform & { dir: string };
let folder: string;

beforeAll(() => {
  p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  folder = tempDir('agent-desk-mcp-fs-');
});
afterAll(async () => {
  await closePlatform(p);
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('MCP servers API', () => {
  it('adds a stdio server, keeps env secrets write-only, and lists its tools from the real server (started on save)', async () => {
    const s = await addServer(p, everythingStdio({ name: 'ev-secret', env: { EVERYTHING_SECRET_TOKEN: 'tok-123' } }));
    expect(s).toMatchObject({ name: 'ev-secret', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], has_env: true, env_keys: ['EVERYTHING_SECRET_TOKEN'], status: 'starting', approval: 'auto', enabled: true });
    expect(JSON.stringify(s)).not.toContain('tok-123');
    const listed = await call(p, 'GET', '/api/mcp-servers');
    expect(JSON.stringify(listed.json)).not.toContain('tok-123');
    // Stored sealed, never as given in the row either (plain box prefixes, desktop encrypts).
    const row = p.db.prepare('SELECT env FROM mcp_servers WHERE id = ?').get(s.id) as { env: string };
    expect(row.env.startsWith('plain:')).toBe(true);

    const tools = await call(p, 'GET', `/api/mcp-servers/${s.id}/tools`);
    expect(tools.status).toBe(200);
    const echo = tools.json.data.find((t: any) => t.name === 'echo');
    expect(echo.description).toMatch(/echo/i);
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { message: expect.any(Object) } });
    const after = (await call(p, 'GET', `/api/mcp-servers/${s.id}`)).json;
    expect(after.status).toBe('running');
    expect(after.pid).toBeGreaterThan(0);

    // The secret env reached the server process (the everything server's get-env tool reads its env).
    const conn = p.services.tools.connectionOf(1, s.id);
    const env = await conn.call('get-env', {}, { signal: AbortSignal.timeout(limit(20_000)), timeoutMs: limit(20_000) });
    expect(env.text).toContain('tok-123');
  });

  it('answers 422 for bad input and 404 for unknown servers, never 500', async () => {
    const noCmd = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'x', transport: 'stdio' } });
    expect(noCmd.status).toBe(422);
    expect(noCmd.json.errors.command[0]).toMatch(/required/);
    const noUrl = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'x', transport: 'http' } });
    expect(noUrl.status).toBe(422);
    const badUrl = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'x', url: 'ftp://nope' } });
    expect(badUrl.status).toBe(422);
    const noName = await call(p, 'POST', '/api/mcp-servers', { body: { command: 'x' } });
    expect(noName.status).toBe(422);
    await addServer(p, { name: 'dup', command: 'true' });
    const dup = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'dup', command: 'true' } });
    expect(dup.status).toBe(422);
    expect(dup.json.errors.name[0]).toBe('The name has already been taken.');
    expect((await call(p, 'GET', '/api/mcp-servers/999')).status).toBe(404);
    expect((await call(p, 'GET', '/api/mcp-servers/abc')).status).toBe(404);
    expect((await call(p, 'PATCH', '/api/mcp-servers/999', { body: { name: 'y' } })).status).toBe(404);
    expect((await call(p, 'DELETE', '/api/mcp-servers/999')).status).toBe(404);
    const agent = await call(p, 'PATCH', '/api/agents/1', { body: { tool_servers: [{ server_id: 999 }] } });
    expect(agent.status).toBe(422);
    expect(agent.json.errors['tool_servers.0.server_id']).toBeTruthy();
  });

  it('a server that cannot start is failed with its stderr visible, and listing its tools is a 409, not a 500', async () => {
    const s = await addServer(p, { name: 'broken', command: process.execPath, args: ['-e', 'console.error("boom: missing config"); process.exit(3)'] });
    const r = await call(p, 'GET', `/api/mcp-servers/${s.id}/tools`);
    expect(r.status).toBe(409);
    expect(r.json.message).toMatch(/broken/);
    const v = (await call(p, 'GET', `/api/mcp-servers/${s.id}`)).json;
    expect(v.status).toBe('failed');
    expect(v.stderr).toContain('boom: missing config');
    expect(v.error).toMatch(/Could not start/);
  });

  it('talks Streamable HTTP to server-everything, with headers write-only', async () => {
    const http = await startEverythingHttp();
    try {
      const s = await addServer(p, { name: 'ev-http', url: http.url, headers: { 'X-Trace': 'abc' }, bearer: 'sekrit', approval: 'auto' });
      expect(s.transport).toBe('http');
      expect(s.header_names.sort()).toEqual(['Authorization', 'X-Trace']);
      expect(JSON.stringify(s)).not.toContain('sekrit');
      const tools = await call(p, 'GET', `/api/mcp-servers/${s.id}/tools`);
      expect(tools.status).toBe(200);
      expect(tools.json.data.map((t: any) => t.name)).toContain('echo');
      const res = await p.services.tools.connectionOf(1, s.id).call('echo', { message: 'over http' }, { signal: AbortSignal.timeout(limit(20_000)), timeoutMs: limit(20_000) });
      expect(res).toEqual({ text: 'Echo: over http', isError: false });
    } finally {
      await http.stop();
    }
  });

  it('an HTTP server that goes away: the call fails clearly, the server shows failed, and once it is back the next use reconnects', async () => {
    let http = await startEverythingHttp();
    try {
      const s = await addServer(p, { name: 'ev-http-restart', url: http.url, approval: 'auto' });
      const conn = p.services.tools.connectionOf(1, s.id);
      const opts = () => ({ signal: AbortSignal.timeout(limit(20_000)), timeoutMs: limit(20_000) });
      expect((await conn.call('echo', { message: 'one' }, opts())).text).toBe('Echo: one');
      await http.stop();
      await expect(conn.call('echo', { message: 'two' }, opts())).rejects.toThrow(/could not be reached while echo ran/);
      const v = (await call(p, 'GET', `/api/mcp-servers/${s.id}`)).json;
      expect(v.status).toBe('failed');
      expect(v.error).toMatch(/could not be reached/);
      http = await startEverythingHttp(http.port);
      // A new session with the restarted server (the old session id would be refused).
      expect((await conn.call('echo', { message: 'three' }, opts())).text).toBe('Echo: three');
      expect((await call(p, 'GET', `/api/mcp-servers/${s.id}`)).json.status).toBe('running');
    } finally {
      await http.stop();
    }
  });

  it('lists server-filesystem tools on a temp folder', async () => {
    const s = await addServer(p, filesystemStdio(folder));
    const tools = await call(p, 'GET', `/api/mcp-servers/${s.id}/tools`);
    expect(tools.status).toBe(200);
    expect(tools.json.data.map((t: any) => t.name)).toEqual(expect.arrayContaining(['read_text_file', 'list_directory']));
  });

  it('imports a Claude Desktop mcpServers JSON; existing names and unusable entries are skipped with a reason', async () => {
    const r = await call(p, 'POST', '/api/mcp-servers/import', {
      body: {
        mcpServers: {
          'imp-everything': { command: process.execPath, args: [EVERYTHING], env: { API_TOKEN: 'hidden' } },
          'imp-remote': { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer z' } },
          dup: { command: 'true' },
          empty: {},
          legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.imported.map((s: any) => [s.name, s.transport, s.approval])).toEqual([
      ['imp-everything', 'stdio', 'ask'],
      ['imp-remote', 'http', 'ask'],
    ]);
    expect(r.json.skipped.map((s: any) => s.name).sort()).toEqual(['dup', 'empty', 'legacy']);
    expect(JSON.stringify(r.json)).not.toContain('hidden');
    const bad = await call(p, 'POST', '/api/mcp-servers/import', { body: { servers: {} } });
    expect(bad.status).toBe(422);
  });

  it('PATCH changes settings (env entries removed with null), DELETE stops the server', async () => {
    const s = await addServer(p, everythingStdio({ name: 'to-delete', env: { A: '1', B: '2' } }));
    const patched = await call(p, 'PATCH', `/api/mcp-servers/${s.id}`, { body: { env: { A: null }, approval: 'ask', always_tools: ['echo'] } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ env_keys: ['B'], approval: 'ask', always_tools: ['echo'] });
    await call(p, 'GET', `/api/mcp-servers/${s.id}/tools`);
    const pid = (await call(p, 'GET', `/api/mcp-servers/${s.id}`)).json.pid as number;
    expect(pid).toBeGreaterThan(0);
    const d = await call(p, 'DELETE', `/api/mcp-servers/${s.id}`);
    expect(d.json).toEqual({ id: s.id, deleted: true });
    await until('the server process to exit', () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
    expect((await call(p, 'GET', `/api/mcp-servers/${s.id}`)).status).toBe(404);
  });
});

describe('MCP servers and the app lifecycle', () => {
  it('running servers are stopped when the platform closes, and a closed platform starts none', async () => {
    const q = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const s = await addServer(q, everythingStdio({ name: 'lifecycle' }));
    expect((await call(q, 'GET', `/api/mcp-servers/${s.id}/tools`)).status).toBe(200);
    const pid = (await call(q, 'GET', `/api/mcp-servers/${s.id}`)).json.pid as number;
    const conn = q.services.tools.connectionOf(1, s.id);
    await closePlatform(q);
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await until('the server process to exit', () => !alive());
    expect(conn.status).toBe('stopped');
    await expect(conn.listTools()).rejects.toThrow(/stopped \(Agent Desk is closing\)/);
  });
});
