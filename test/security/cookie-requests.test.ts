/**
 * Browser mode: SameSite=Strict does not tell local ports apart, so a page served from another
 * port (or an image in a model's answer) sends the session cookie. Such a request has no way to
 * add the app's own header, and is refused; and no GET starts a process anyway: an MCP server
 * starts, and its tools are fetched, on save, on an explicit refresh or for a run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, makePlatform, tempDir } from '../api/helpers.js';
import { everythingStdio } from '../tools/helpers.js';
import { until } from '../fixtures/until.js';
import { servePlatform, stop, type TestPlatform } from './helpers.js';

const BASE = 'http://127.0.0.1:8787';
let p: TestPlatform;
let cookie: string;
let scratch: string;

beforeAll(async () => {
  p = servePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  scratch = tempDir('agent-desk-cookie-get-');
  const token = new URL(p.browser.loginUrl(BASE)).searchParams.get('token')!;
  const res = await p.app.request(`${BASE}/login?token=${token}`, { headers: { host: '127.0.0.1:8787' } });
  cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  expect(cookie).toMatch(/^agent_desk_session_8787=/);
});
afterAll(async () => {
  await stop(p);
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A request as a browser sends it with the session cookie; `app` adds the app's own header. */
function browser(method: string, url: string, opts: { app?: boolean; origin?: string; site?: string } = {}) {
  const headers: Record<string, string> = { host: '127.0.0.1:8787', cookie };
  if (opts.app) headers['x-agent-desk'] = '1';
  if (opts.origin) headers.origin = opts.origin;
  if (opts.site) headers['sec-fetch-site'] = opts.site;
  return p.app.request(`${BASE}${url}`, { method, headers, body: method === 'GET' ? undefined : '{}' });
}

describe('cookie requests in browser mode', () => {
  it("a cookie request without the app's header is refused", async () => {
    // What an <img>, a link or a form on a page of another local port sends: the cookie and nothing else.
    const attacks: [string, string, { origin?: string; site?: string }][] = [
      ['GET', '/api/agents', {}],
      ['GET', '/api/memories', { site: 'same-site' }],
      ['GET', '/api/mcp-servers', { site: 'same-site' }],
      ['GET', '/api/settings/providers', {}],
      ['GET', '/api/models?fresh=1', {}],
      ['GET', '/v1/models', {}],
      ['POST', '/api/memories', { origin: BASE, site: 'same-origin' }],
      ['POST', '/mcp', { origin: 'http://127.0.0.1:5173', site: 'same-site' }],
    ];
    for (const [method, url, o] of attacks) {
      const r = await browser(method, url, o);
      expect(r.status, `${method} ${url}`).toBe(403);
      expect(await r.text(), `${method} ${url}`).toMatch(/X-Agent-Desk/);
    }
    // The app's own page, and a client with a key, are let in.
    expect((await browser('GET', '/api/agents', { app: true })).status).toBe(200);
    expect((await browser('POST', '/api/memory-collections', { app: true, origin: BASE, site: 'same-origin' })).status).toBe(422);
    expect((await call(p, 'GET', '/api/agents')).status).toBe(200);
    // The header does not let another origin change data.
    expect((await browser('POST', '/api/memories', { app: true, origin: 'http://127.0.0.1:5173', site: 'same-site' })).status).toBe(403);
  });

  it("a cookie GET of an MCP server's tools starts no process", async () => {
    const starts = path.join(scratch, 'starts.log');
    const script = path.join(scratch, 'server.js');
    // Notes each start, then exits without speaking MCP (so it never stays running).
    fs.writeFileSync(script, `require('fs').appendFileSync(${JSON.stringify(starts)}, 'start\\n'); process.exit(2);\n`);
    const count = () => (fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').filter(Boolean).length : 0);
    const made = await call(p, 'POST', '/api/mcp-servers', { body: { name: 'counted', command: process.execPath, args: [script] } });
    expect(made.status).toBe(201);
    const id = made.json.id;
    // Saving may start it (once); wait for that to be over.
    await until('the start on save to be over', async () => (await call(p, 'GET', `/api/mcp-servers/${id}`)).json.status !== 'starting');
    const saved = count();
    expect(saved).toBeLessThanOrEqual(1);

    const gets = [`/api/mcp-servers/${id}/tools`, `/api/mcp-servers/${id}`, '/api/mcp-servers', `/api/mcp-servers/${id}/tools`];
    for (const url of gets) {
      await (await browser('GET', url)).arrayBuffer(); // cookie only, as an <img> sends it
      await (await browser('GET', url, { app: true })).arrayBuffer(); // the app's own page
      await call(p, 'GET', url); // a key
    }
    const listed = await call(p, 'GET', `/api/mcp-servers/${id}/tools`);
    expect(listed.status).toBe(409);
    expect(listed.json.message).toMatch(/counted/);
    expect(count()).toBe(saved);

    // Starting it again is an explicit POST.
    const refreshed = await browser('POST', `/api/mcp-servers/${id}/refresh`, { app: true, origin: BASE, site: 'same-origin' });
    expect(refreshed.status).toBe(409);
    expect(count()).toBe(saved + 1);
  });

  it('a GET lists the tools fetched on save, also after a restart, and refresh fetches them again', async () => {
    const made = await call(p, 'POST', '/api/mcp-servers', { body: everythingStdio({ name: 'pinger' }) });
    const id = made.json.id;
    const first = await call(p, 'GET', `/api/mcp-servers/${id}/tools`);
    expect(first.status).toBe(200);
    expect(first.json.data.map((t: any) => t.name)).toContain('echo');
    expect((await call(p, 'GET', `/api/mcp-servers/${id}`)).json.pid).toBeGreaterThan(0);
    // Another start of the platform on this data dir lists them from what was fetched, starting nothing.
    const again = makePlatform({ dataDir: p.dir, env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const listed = await call(again, 'GET', `/api/mcp-servers/${id}/tools`);
      expect(listed.json.data).toEqual(first.json.data);
      expect((await call(again, 'GET', `/api/mcp-servers/${id}`)).json).toMatchObject({ status: 'stopped', pid: null });
    } finally {
      await again.close();
    }
    const refreshed = await call(p, 'POST', `/api/mcp-servers/${id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.data).toEqual(first.json.data);
  });
});
