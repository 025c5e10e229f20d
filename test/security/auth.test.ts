/**
 * Every route needs a key: walks the app's own route table (as `npm run serve` builds it), so a
 * route added later is covered without touching this file. The documented public exceptions
 * are the API's description, the browser-mode login and the renderer's static files.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BASE, KEY } from '../api/helpers.js';
import { concreteRoutes, fill, servePlatform, stop, wildcardPrefixes } from './helpers.js';

const p = servePlatform();
afterAll(() => stop(p));

/** Public by design (CONTRACT.md, ARCHITECTURE.md): no user data behind them. */
const PUBLIC = new Set(['GET /api/openapi.json', 'GET /api/docs', 'GET /login']);
const isStatic = (method: string, path: string) => (method === 'GET' || method === 'HEAD') && !/^\/(api|v1|mcp|login)(\/|$)/.test(path);

async function hit(method: string, path: string, authorization?: string, client = 'auth-walk') {
  const headers: Record<string, string> = { host: '127.0.0.1:8787', 'content-type': 'application/json' };
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await p.app.request(`${BASE}${path}`, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : '{}' }, {
    incoming: { socket: { remoteAddress: client } },
  } as any);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const routes = concreteRoutes(p.app);
const guarded = routes.flatMap((r) => (r.method === 'ALL' ? ['GET', 'POST'].map((m) => ({ method: m, path: r.path })) : [r])).filter((r) => !PUBLIC.has(`${r.method} ${r.path}`));

describe('every route needs a key', () => {
  it('the route table was walked', () => {
    expect(guarded.length).toBeGreaterThan(20);
  });

  let n = 0;
  for (const [i, r] of guarded.entries()) {
    it(`${r.method} ${r.path}: 401 without a key and with a wrong one`, async () => {
      // Failed attempts are limited per presented credential (30), so each route presents its own
      // wrong ones; the valid key without its scheme is tried on the first routes only.
      const wrong = [undefined, `Bearer wrong-key-${i}`, `Basic ${Buffer.from(`x${i}:${KEY}`).toString('base64')}`, ...(i < 25 ? [KEY] : [])];
      for (const auth of wrong) {
        const a = await hit(r.method, fill(r.path), auth, `walker-${n++}`);
        expect(a.status, `${r.method} ${r.path} with ${auth ?? 'no Authorization'}`).toBe(401);
        expect(a.headers.get('www-authenticate')).toBe('Bearer');
        expect(a.text).not.toMatch(/"data"|"memories"|"collections"/);
      }
    });
  }

  it('any path under a guarded prefix needs a key, even an unknown one', async () => {
    // The roots of the guarded routes (/api, /v1, /mcp) and the doors' catch-alls (/v1/messages).
    const prefixes = [...new Set([...guarded.map((r) => /^\/[^/:*]+/.exec(r.path)?.[0] ?? ''), ...wildcardPrefixes(p.app)])].filter((x) => x !== '' && !x.includes(':'));
    expect(prefixes).toContain('/api');
    for (const prefix of prefixes) {
      const a = await hit('GET', `${prefix}/no-such-thing`, undefined, `prefix-${prefix}`);
      expect(a.status, prefix).toBe(401);
    }
  });

  it('a revoked key stops working at once; a stored key works', async () => {
    const res = await p.app.request(`${BASE}/api/keys`, {
      method: 'POST',
      headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'sec' }),
    });
    const { key, id } = (await res.json()) as { key: string; id: number };
    expect((await hit('GET', '/api/agents', `Bearer ${key}`)).status).toBe(200);
    expect((await hit('DELETE', `/api/keys/${id}`, `Bearer ${KEY}`)).status).toBe(200);
    expect((await hit('GET', '/api/agents', `Bearer ${key}`, 'revoked')).status).toBe(401);
  });
});

describe('public exceptions', () => {
  it('openapi.json and docs need no key', async () => {
    expect((await hit('GET', '/api/openapi.json')).status).toBe(200);
    expect((await hit('GET', '/api/docs')).status).toBe(200);
  });

  it('the static renderer needs no key but serves only its own files', async () => {
    const a = await hit('GET', '/');
    expect(a.status).toBe(200);
    expect(a.text).toContain('Agent Desk');
    for (const path of ['/..%2f..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%5c..%5cpackage.json', '/%00']) {
      const b = await hit('GET', path);
      expect(b.text, path).not.toMatch(/root:|"name":\s*"agent-desk"/);
    }
  });

  it('the routes of the table that are public are exactly the documented ones', () => {
    const open = routes.filter((r) => PUBLIC.has(`${r.method} ${r.path}`) || isStatic(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(open.sort()).toEqual([...PUBLIC].sort());
  });
});
