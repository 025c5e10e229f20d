/**
 * Write-only secrets stay write-only: a stored secret (provider key, remote key, MCP env values and
 * headers) goes only to the destination it was entered for. Changing the URL, command, args or
 * working folder without entering the secret again is a 422 naming that field (the embeddings key
 * too); what an MCP server prints is shown with the known secret values masked; exports leave
 * credentials inside URLs out unless asked for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform, tempDir } from '../api/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { until } from '../fixtures/until.js';
import { exportTar } from '../crash/data-safety-helpers.js';
import { tarJson } from '../hostile/support/tar-read.js';
import type { Platform } from '../../src-main/platform/platform.js';

const KEY = 'sk-entered-for-the-good-server';
const REMOTE_KEY = 'rk-entered-for-the-good-remote';
const ENV_SECRET = 'mcp-env-secret-4242';
const HEADER_SECRET = 'mcp-header-secret-7777';

let p: Platform & { dir: string };
let good: RecordingServer;
let evil: RecordingServer;
let scratch: string;

const answer = ({ url, json }: { url: URL; json(s: number, v: unknown): void }) =>
  url.pathname.endsWith('/models') ? json(200, { object: 'list', data: [{ id: 'm1', object: 'model' }] }) : json(200, { data: [], current_page: 1, last_page: 1, total: 0 });

/** Every secret that reached a server, as it was sent. */
const leaked = (s: RecordingServer) => s.requests.map((r) => JSON.stringify(r.headers)).filter((h) => [KEY, REMOTE_KEY, HEADER_SECRET].some((k) => h.includes(k)));

beforeAll(async () => {
  good = await startRecordingServer(answer);
  evil = await startRecordingServer(answer);
  scratch = tempDir('agent-desk-secret-dest-');
  p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
});
afterAll(async () => {
  await closePlatform(p);
  await good.close();
  await evil.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('a stored secret goes only where it was entered for', () => {
  it("a provider's key is not sent to a changed base_url", async () => {
    const saved = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'openai', kind: 'openai-compatible', base_url: `${good.origin}/v1`, api_key: KEY }] } });
    expect(saved.status).toBe(200);
    const test = await call(p, 'POST', '/api/settings/providers/test', { body: { provider: { id: 'openai', kind: 'openai-compatible', base_url: `${evil.origin}/v1` } } });
    expect(test.status).toBe(422);
    expect(test.json.errors['provider.base_url'][0]).toMatch(/enter its API key again/);

    const attacks = [
      { id: 'openai', kind: 'openai-compatible', base_url: `${evil.origin}/v1` },
      { id: 'openai', kind: 'ollama', base_url: evil.origin },
      { id: 'openai', kind: 'openai-compatible', base_url: null }, // the kind's default URL is a new destination too
      { id: 'openai', kind: 'anthropic', base_url: evil.origin },
    ];
    for (const entry of attacks) {
      const r = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [entry] } });
      expect(r.status, JSON.stringify(entry)).toBe(422);
      expect(Object.keys(r.json.errors), JSON.stringify(entry)).toEqual(['providers.0.base_url']);
    }
    // Nothing changed, and the evil server never saw the key.
    expect((await call(p, 'GET', '/api/settings/providers')).json.providers.find((x: any) => x.id === 'openai').base_url).toBe(`${good.origin}/v1`);
    expect(evil.requests).toEqual([]);

    // The same destination keeps the key; the key entered again may go to the new one.
    expect((await call(p, 'POST', '/api/settings/providers/test', { body: { provider: { id: 'openai', kind: 'openai-compatible', base_url: `${good.origin}/v1/`, label: 'Renamed' } } })).json.ok).toBe(true);
    expect(good.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    const moved = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'openai', kind: 'openai-compatible', base_url: `${evil.origin}/v1`, api_key: 'sk-entered-for-evil' }] } });
    expect(moved.status).toBe(200);
    expect((await call(p, 'POST', '/api/settings/providers/test', { body: { id: 'openai' } })).json.ok).toBe(true);
    expect(evil.requests.map((r) => r.headers.authorization)).toEqual(['Bearer sk-entered-for-evil']);
  });

  it("the embeddings key is not sent to a changed base_url (the same rule as every kept key)", async () => {
    const model = 'text-embedding-3-small';
    const saved = await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model, base_url: `${good.origin}/v1`, api_key: KEY } });
    expect(saved.status, saved.text).toBe(200);
    for (const base_url of [`${evil.origin}/v1`, null]) {
      const r = await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model, base_url } });
      expect(r.status, r.text).toBe(422);
      expect(r.json.errors).toEqual({ base_url: ['To change the embeddings base URL, enter its API key again: a stored key is only sent to the address it was entered for.'] });
    }
    const kept = await call(p, 'GET', '/api/settings/embeddings');
    expect(kept.json).toMatchObject({ base_url: `${good.origin}/v1`, has_api_key: true });
    // The same address keeps the key; the key entered again may go to the new one.
    expect((await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model, base_url: `${good.origin}/v1` } })).status).toBe(200);
    expect(leaked(evil)).toEqual([]);
    const moved = await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model, base_url: `${evil.origin}/v1`, api_key: 'sk-entered-for-evil' } });
    expect(moved.status, moved.text).toBe(200);
    expect((await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'builtin' } })).status).toBe(200);
  });

  it('an export leaves credentials inside URLs out unless include_secrets=1', async () => {
    const agent = (await call(p, 'POST', '/api/agents', { body: { title: 'Exported hooks' } })).json;
    const w = await call(p, 'POST', `/api/agents/${agent.id}/webhooks`, { body: { url: 'http://hook-user:hook-pw@127.0.0.1:9/in?x=1' } });
    expect(w.status, w.text).toBe(201);
    const urls = (tar: Buffer) => (tarJson(tar, 'webhooks.json') as { agent_id: number; url: string }[]).filter((h) => h.agent_id === agent.id).map((h) => h.url);
    const plain = await exportTar(p);
    expect(urls(plain)).toEqual(['http://127.0.0.1:9/in?x=1']);
    expect(plain.includes('hook-pw')).toBe(false);
    expect(urls(await exportTar(p, '?include_secrets=1'))).toEqual(['http://hook-user:hook-pw@127.0.0.1:9/in?x=1']);
  });

  it('first-run setup does not send a stored key to a new server either', async () => {
    expect((await call(p, 'POST', '/api/models/setup', { body: { kind: 'openai-compatible', base_url: `${good.origin}/v1`, api_key: KEY } })).json.ok).toBe(true);
    const before = evil.requests.length;
    const again = await call(p, 'POST', '/api/models/setup', { body: { kind: 'openai-compatible', base_url: `${evil.origin}/v1` } });
    expect(again.status).toBe(422);
    expect(again.json.errors.base_url[0]).toMatch(/enter its API key again/);
    expect(evil.requests.length).toBe(before);
  });

  it('the remote key is not sent to a changed remote URL', async () => {
    expect((await call(p, 'PUT', '/api/settings/remote', { body: { base_url: good.origin, api_key: REMOTE_KEY } })).status).toBe(200);
    const moved = await call(p, 'PUT', '/api/settings/remote', { body: { base_url: evil.origin } });
    expect(moved.status).toBe(422);
    expect(moved.json.errors.base_url[0]).toMatch(/enter its API key again/);
    // Disconnected first, then pointed elsewhere: still the key of another address.
    expect((await call(p, 'PUT', '/api/settings/remote', { body: { base_url: null } })).status).toBe(200);
    expect((await call(p, 'PUT', '/api/settings/remote', { body: { base_url: evil.origin } })).status).toBe(422);
    expect(leaked(evil)).toEqual([]);
    expect((await call(p, 'PUT', '/api/settings/remote', { body: { base_url: good.origin, api_key: REMOTE_KEY } })).status).toBe(200);
  });

  it("an MCP server's env is not handed to a changed command, and its stderr masks the secret", async () => {
    const printer = path.join(scratch, 'print-env.js');
    fs.writeFileSync(printer, "console.error('token=' + process.env.API_TOKEN); process.exit(1);\n");
    const s = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'quiet', command: process.execPath, args: ['-e', 'process.exit(0)'], env: { API_TOKEN: ENV_SECRET, DEBUG: '1' } } });
    expect(s.status).toBe(201);
    const id = s.json.id;
    const attacks: Record<string, unknown>[] = [
      { args: [printer] },
      { command: '/bin/sh', args: ['-c', 'echo $API_TOKEN >&2'] },
      { cwd: scratch },
      { args: [printer], env: { DEBUG: '2' } }, // re-entering another value does not cover API_TOKEN
    ];
    for (const body of attacks) {
      const r = await call(p, 'PATCH', `/api/mcp-servers/${id}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.json.message, JSON.stringify(body)).toMatch(/enter its env values again \(API_TOKEN/);
    }
    expect(Object.keys((await call(p, 'PATCH', `/api/mcp-servers/${id}`, { body: { args: [printer] } })).json.errors)).toEqual(['args']);
    expect(Object.keys((await call(p, 'PATCH', `/api/mcp-servers/${id}`, { body: { command: '/bin/sh' } })).json.errors)).toEqual(['command']);

    // Entered again, the change is the user's.
    const ok = await call(p, 'PATCH', `/api/mcp-servers/${id}`, { body: { args: [printer], env: { API_TOKEN: ENV_SECRET, DEBUG: '1' } } });
    expect(ok.status).toBe(200);
  });

  it("an MCP server's stderr is shown with its secret values masked", async () => {
    const printer = path.join(scratch, 'print-env-2.js');
    fs.writeFileSync(printer, "console.error('token=' + process.env.API_TOKEN + ' auth=' + process.env.AUTH); process.exit(1);\n");
    const s = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'printer', command: process.execPath, args: [printer], env: { API_TOKEN: ENV_SECRET, AUTH: `Bearer ${HEADER_SECRET}` } } });
    expect(s.status).toBe(201);
    await p.services.tools.connectionOf(1, s.json.id).listTools().catch(() => {});
    const failed = await until('the printing server to fail', async () => {
      const v = (await call(p, 'GET', `/api/mcp-servers/${s.json.id}`)).json;
      return v.status === 'failed' && v.stderr.includes('token=') ? v : null;
    });
    expect(failed.stderr).toContain('token=•••••• auth=••••••');
    for (const text of [failed.stderr, failed.error, (await call(p, 'GET', '/api/mcp-servers')).text, (await call(p, 'GET', `/api/mcp-servers/${s.json.id}/tools`)).text]) {
      expect(text).not.toContain(ENV_SECRET);
      expect(text).not.toContain(HEADER_SECRET);
    }
  });

  it("an MCP server's headers are not sent to a changed URL", async () => {
    const s = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'remote-tools', url: `${good.origin}/mcp`, bearer: HEADER_SECRET, headers: { 'X-Team': 'team-9' }, enabled: false } });
    expect(s.status).toBe(201);
    for (const body of [{ url: `${evil.origin}/mcp` }, { url: `${evil.origin}/mcp`, headers: { 'X-Team': 'team-9' } }, { url: `${evil.origin}/mcp`, bearer: 'other' }]) {
      const r = await call(p, 'PATCH', `/api/mcp-servers/${s.json.id}`, { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(r.json.errors)).toEqual(['url']);
    }
    const ok = await call(p, 'PATCH', `/api/mcp-servers/${s.json.id}`, { body: { url: `${evil.origin}/mcp`, bearer: 'entered-for-evil', headers: { 'X-Team': 'team-9' } } });
    expect(ok.status).toBe(200);
    expect(leaked(evil)).toEqual([]);
  });
});
