/**
 * Browser mode: a session outlives a restart of serve (same data dir, same port), as Jupyter's do,
 * so an open page carries on once the server is back. What is kept is the session's hash and
 * expiry, in a file only its user reads; an expired or damaged record signs nobody in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makePlatform, closePlatform, tempDir, BASE } from '../api/helpers.js';
import { createBrowserSessions, fileSessionStore, type BrowserSessions } from '../../src-main/platform/transports/http/session.js';

const open: (ReturnType<typeof makePlatform>)[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const p of open.splice(0)) await closePlatform(p);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** One start of serve: its sessions (on `store`) in front of a platform. */
function serveWith(file: string, now: () => number = Date.now): { browser: BrowserSessions; get(url: string, cookie?: string): Promise<Response> } {
  const browser = createBrowserSessions({ userId: 1, port: 8787, now, store: fileSessionStore(() => file) });
  const p = makePlatform({ app: { resolvers: [browser.resolver] } });
  browser.mount(p.app);
  open.push(p);
  const get = async (url: string, cookie?: string) => p.app.request(`${BASE}${url}`, { headers: { host: '127.0.0.1:8787', 'x-agent-desk': '1', ...(cookie ? { cookie } : {}) } });
  return { browser, get };
}

async function signIn(s: ReturnType<typeof serveWith>): Promise<string> {
  const token = new URL(s.browser.loginUrl(BASE)).searchParams.get('token')!;
  const res = await s.get(`/login?token=${token}`);
  expect(res.status).toBe(302);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('browser sessions kept across a restart', () => {
  it('a session from before the restart still signs the page in; the file holds no cookie value and is 0600', async () => {
    const dir = tempDir('agent-desk-sessions-');
    dirs.push(dir);
    const file = path.join(dir, 'browser-sessions.json');
    const first = serveWith(file);
    const cookie = await signIn(first);
    expect((await first.get('/api/agents', cookie)).status).toBe(200);

    const second = serveWith(file);
    expect((await second.get('/api/agents', cookie)).status).toBe(200);
    expect((await second.get('/api/agents', 'agent_desk_session_8787=forged')).status).toBe(401);
    const kept = fs.readFileSync(file, 'utf8');
    expect(kept).not.toContain(cookie.split('=')[1]);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('an expired session is not brought back, and a damaged file is no session at all', async () => {
    const dir = tempDir('agent-desk-sessions-');
    dirs.push(dir);
    const file = path.join(dir, 'browser-sessions.json');
    let clock = Date.now();
    const cookie = await signIn(serveWith(file, () => clock));
    clock += 8 * 24 * 3600_000;
    expect((await serveWith(file, () => clock).get('/api/agents', cookie)).status).toBe(401);
    fs.writeFileSync(file, '{not json');
    expect((await serveWith(file).get('/api/agents', cookie)).status).toBe(401);
    fs.writeFileSync(file, JSON.stringify([['short', { userId: 1, expires: Number.MAX_SAFE_INTEGER }]]));
    expect((await serveWith(file).get('/api/agents', cookie)).status).toBe(401);
  });
});
