import fs from 'node:fs';
import path from 'node:path';
import { startServer, type ServerProcess } from '../api/server-process.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform, tempDir, BASE } from '../api/helpers.js';
import { createBrowserSessions, type BrowserSessions } from '../../src-main/platform/transports/http/session.js';
import { mountStatic, ensureRendererBuilt } from '../../src-main/platform/transports/http/static.js';
import { safeJoin } from '../../src-main/platform/kernel/static-files.js';
import type { Platform } from '../../src-main/platform/platform.js';

const INDEX = '<!doctype html><html><head><title>Agent Desk UI</title></head><body><div id="root"></div></body></html>';

function makeRenderer(): string {
  const dir = tempDir('agent-desk-renderer-');
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'app-123.js'), 'console.log(1)');
  return dir;
}

describe('browser mode (in-process)', () => {
  let p: Platform & { dir: string };
  let browser: BrowserSessions;
  let rendererDir: string;
  let clock = Date.now();
  const dirs: string[] = [];

  beforeAll(() => {
    browser = createBrowserSessions({ userId: 1, port: 8787, now: () => clock });
    p = makePlatform({ app: { resolvers: [browser.resolver] } });
    browser.mount(p.app);
    rendererDir = makeRenderer();
    mountStatic(p.app, { root: rendererDir });
    dirs.push(p.dir, rendererDir);
  });
  afterAll(async () => {
    await p.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  // What the app's page sends: its own header beside the cookie.
  const get = (url: string, headers: Record<string, string> = {}) => p.app.request(`${BASE}${url}`, { headers: { host: '127.0.0.1:8787', 'x-agent-desk': '1', ...headers } });
  const login = async () => {
    const token = new URL(browser.loginUrl(BASE)).searchParams.get('token')!;
    const res = await get(`/login?token=${token}`);
    const setCookie = res.headers.get('set-cookie') ?? '';
    return { res, token, setCookie, cookie: setCookie.split(';')[0] };
  };

  it('prints a login URL on the server base', () => {
    expect(browser.loginUrl('http://127.0.0.1:9999')).toMatch(/^http:\/\/127\.0\.0\.1:9999\/login\?token=[\w-]{20,}$/);
    expect(browser.loginUrl('http://0.0.0.0:9999/')).toMatch(/^http:\/\/127\.0\.0\.1:9999\/login\?token=/);
    expect(browser.loginUrl('http://[::]:9999')).toMatch(/^http:\/\/\[::1\]:9999\/login\?token=/);
  });

  it('exchanges a login token once for an HttpOnly, SameSite=Strict session cookie', async () => {
    const { res, token, setCookie } = await login();
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    expect(setCookie).toMatch(/^agent_desk_session_8787=[\w-]{30,};/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Strict/i);
    expect(setCookie).toMatch(/;\s*Path=\/(;|$)/);
    expect(res.headers.get('cache-control')).toBe('no-store');

    const again = await get(`/login?token=${token}`);
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toMatch(/login link is not valid/);
  });

  it('refuses a wrong or missing token with a 403 page', async () => {
    for (const url of ['/login?token=nope', '/login']) {
      const res = await get(url);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('authenticates API calls with the session cookie, and only with a real one', async () => {
    const { cookie } = await login();
    const ok = await get('/api/agents', { cookie });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.length).toBeGreaterThan(0);
    expect((await get('/api/agents')).status).toBe(401);
    expect((await get('/api/agents', { cookie: 'agent_desk_session_8787=forged' })).status).toBe(401);
    // Another server's cookie (other port) is not ours.
    expect((await get('/api/agents', { cookie: cookie.replace('_8787=', '_9999=') })).status).toBe(401);
  });

  it('refuses a cross-site state-changing request that carries the cookie', async () => {
    const { cookie } = await login();
    const post = (headers: Record<string, string>) =>
      p.app.request(`${BASE}/api/memory-collections`, {
        method: 'POST',
        headers: { host: '127.0.0.1:8787', 'content-type': 'application/json', 'x-agent-desk': '1', cookie, ...headers },
        body: JSON.stringify({ name: 'from the browser' }),
      });
    const evil = await post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(evil.status).toBe(403);
    expect((await evil.json()).message).toMatch(/Cross-site request refused/);
    expect((await post({ 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:8787' })).status).toBe(403);
    expect((await post({ origin: 'http://localhost:8787' })).status).toBe(403);
    expect((await post({})).status).toBe(403); // no Origin at all
    const same = await post({ origin: 'http://127.0.0.1:8787', 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    expect((await same.json()).collection.name).toBe('from the browser');
  });

  it('expires sessions after their lifetime', async () => {
    const { cookie } = await login();
    clock += 8 * 24 * 3600_000;
    try {
      expect((await get('/api/agents', { cookie })).status).toBe(401);
    } finally {
      clock = Date.now();
    }
  });

  it('serves the renderer index.html at / with a strict CSP', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
  });

  it('serves assets, the app shell for client routes, and nothing outside the folder', async () => {
    const js = await get('/assets/app-123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    const route = await get('/agents/12');
    expect(route.status).toBe(200);
    expect(await route.text()).toBe(INDEX);
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(404);
    expect(safeJoin('/srv/app', '/../etc/passwd')).toBe('/srv/app/etc/passwd');
    expect(safeJoin('/srv/app', '/..%2f..%2fetc')).toBe('/srv/app/etc');
  });

  it('leaves API paths to the API: unknown routes keep their 404, methods their 405', async () => {
    const unknown = await get('/api/nothing-here', { authorization: 'Bearer test-key-0123456789' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not found.' });
    const post = await p.app.request(`${BASE}/no-such-page`, { method: 'POST', headers: { host: '127.0.0.1:8787' } });
    expect(post.status).toBe(404);
  });

  it('still refuses foreign Host names for the UI (DNS rebinding)', async () => {
    expect((await get('/', { host: 'evil.example' })).status).toBe(403);
  });
});

describe('renderer build on first serve', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  function repo(withConfig = true): string {
    const root = tempDir('agent-desk-repo-');
    dirs.push(root);
    if (withConfig) {
      fs.mkdirSync(path.join(root, 'src-renderer'));
      fs.writeFileSync(path.join(root, 'src-renderer', 'vite.config.ts'), 'export default {}');
    }
    return root;
  }

  it('says so when the build fails, and the page explains instead of crashing', async () => {
    const root = repo();
    const notes: string[] = [];
    const build = ensureRendererBuilt({ root, note: (l) => notes.push(l), command: [process.execPath, '-e', 'console.error("boom"); process.exit(3)'] });
    expect(build.pending()).toMatch(/being built/);
    await build.done;
    expect(build.pending()).toMatch(/could not be built \(exit code 3; boom\)/);
    expect(notes.join('\n')).toMatch(/The API is running/);
    expect(fs.existsSync(path.join(root, 'out', '.renderer-build.lock'))).toBe(false);

    const p = makePlatform();
    try {
      mountStatic(p.app, { root: path.join(root, 'out', 'renderer'), pending: build.pending });
      const res = await p.app.request(`${BASE}/`, { headers: { host: '127.0.0.1:8787' } });
      expect(res.status).toBe(503);
      expect(await res.text()).toMatch(/could not be built/);
    } finally {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('builds when index.html is missing and is ready afterwards', async () => {
    const root = repo();
    const script = `require('fs').mkdirSync('out/renderer',{recursive:true});require('fs').writeFileSync('out/renderer/index.html','ok')`;
    const build = ensureRendererBuilt({ root, note: () => {}, command: [process.execPath, '-e', script] });
    await build.done;
    expect(build.pending()).toBeNull();
    const again = ensureRendererBuilt({ root, note: () => {}, command: [process.execPath, '-e', 'process.exit(9)'] });
    expect(again.pending()).toBeNull(); // already built: nothing runs
  });

  it('reports a missing renderer config without trying to build', async () => {
    const build = ensureRendererBuilt({ root: repo(false), note: () => {} });
    await build.done;
    expect(build.pending()).toMatch(/vite\.config\.ts is missing/);
  });
});

describe('npm run serve (real HTTP)', () => {
  let server: ServerProcess | undefined;
  let dataDir: string;
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the listening line first, then a login URL that signs the browser in once', async () => {
    dataDir = tempDir();
    server = await startServer({ dataDir, env: { AGENT_DESK_API_KEY: '' }, login: true });
    const lines = server.output().split('\n').filter((l) => l.startsWith('Agent Desk API') || l.startsWith('Open Agent Desk'));
    expect(lines[0]).toMatch(/^Agent Desk API listening on http:\/\/127\.0\.0\.1:\d+$/);
    const base = lines[0].split(' on ')[1];
    const m = /^Open Agent Desk in your browser: (http:\/\/127\.0\.0\.1:\d+\/login\?token=[\w-]+)$/.exec(lines[1]);
    expect(m).not.toBeNull();
    expect(m![1].startsWith(`${base}/login`)).toBe(true);

    const first = await fetch(m![1], { redirect: 'manual' });
    expect(first.status).toBe(302);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    expect(cookie).toMatch(new RegExp(`^agent_desk_session_${new URL(base).port}=`));
    const agents = await fetch(`${base}/api/agents`, { headers: { cookie, 'x-agent-desk': '1' } });
    expect(agents.status).toBe(200);
    expect((await fetch(m![1], { redirect: 'manual' })).status).toBe(403);
    const evil = await fetch(`${base}/api/memories`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ memory: 'csrf' }),
    });
    expect(evil.status).toBe(403);
  });
});
