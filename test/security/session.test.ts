/**
 * Browser mode: the one-time login link becomes an HttpOnly, SameSite=Strict cookie; the link
 * works once; the cookie cannot be ridden by another site to change data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src-main/platform/transports/http/server.js';
import { serveOn, servePlatform, stop } from './helpers.js';

const p = servePlatform();
let s: RunningServer;
beforeAll(async () => {
  s = await serveOn(p);
});
afterAll(() => stop(p, s));

const login = (url: string) => fetch(url, { redirect: 'manual' });

describe('browser-mode session', () => {
  it('the login token gives an HttpOnly, SameSite=Strict cookie, and works once', async () => {
    const url = p.browser.loginUrl(s.url);
    const first = await login(url);
    expect(first.status).toBe(302);
    const cookie = first.headers.get('set-cookie') ?? '';
    const attrs = cookie.split(';').map((x) => x.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=strict');
    expect(attrs).toContain('path=/');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('referrer-policy')).toBe('no-referrer');
    const again = await login(url);
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    await again.arrayBuffer();
  });

  it('a wrong or empty token gets no cookie', async () => {
    for (const q of ['?token=', '?token=AAAA', '', '?token=../../', `?token=${'x'.repeat(5000)}`]) {
      const r = await login(`${s.url}/login${q}`);
      expect(r.status, q).toBe(403);
      expect(r.headers.get('set-cookie'), q).toBeNull();
      await r.arrayBuffer();
    }
  });

  it('the cookie reads the API from our own page; another site cannot change data with it', async () => {
    const r = await login(p.browser.loginUrl(s.url));
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
    const read = await fetch(`${s.url}/api/memories`, { headers: { cookie, 'x-agent-desk': '1' } });
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    const body = JSON.stringify({ memory: 'csrf' });
    const own = await fetch(`${s.url}/api/memories`, { method: 'POST', headers: { cookie, 'x-agent-desk': '1', origin: s.url, 'content-type': 'application/json' }, body });
    expect(own.status).toBe(200);
    await own.arrayBuffer();
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, {}] as Record<string, string>[]) {
      const before = p.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number };
      // With the app's header: what is refused here is the origin.
      const x = await fetch(`${s.url}/api/memories`, { method: 'POST', headers: { cookie, 'x-agent-desk': '1', 'content-type': 'text/plain', ...headers }, body });
      expect(x.status, JSON.stringify(headers)).toBe(403);
      expect(await x.json()).toHaveProperty('message');
      expect(p.db.prepare('SELECT count(*) AS n FROM memories').get()).toEqual(before);
    }
  });

  it('a forged or stale cookie is no session', async () => {
    const name = p.browser.cookieName();
    for (const value of ['x', '', 'null', '../../', 'a'.repeat(4000)]) {
      const r = await fetch(`${s.url}/api/memories`, { headers: { cookie: `${name}=${value}` } });
      expect(r.status, value.slice(0, 10)).toBe(401);
      await r.arrayBuffer();
    }
  });
});
