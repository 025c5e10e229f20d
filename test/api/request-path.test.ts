/**
 * The request path's shortcuts keep every answer what it was: the checks every request passes run
 * as one gate (an allowed origin's error answers still carry its CORS headers), the router
 * remembers its answers (a route added later is still found), and a cached agent's JSON is made
 * once per version (another process's write is served, not the old text).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TrieRouter } from 'hono/router/trie-router';
import { call, closePlatform, makePlatform } from './helpers.js';
import { connect, DATABASE_FILE } from '../../src-main/platform/db/connection.js';
import { RememberingRouter } from '../../src-main/platform/transports/http/remembering-router.js';
import { until } from '../fixtures/until.js';

const ORIGIN = 'http://localhost:5173';
const p = makePlatform({ allowedOrigins: [ORIGIN], maxJsonBytes: 1024 });
afterAll(() => closePlatform(p));

describe('the request gate', () => {
  const fromOrigin = { origin: ORIGIN };
  it("an allowed origin's errors carry its CORS headers, whichever check or route refused", async () => {
    const answers = {
      'no key (401)': await call(p, 'GET', '/api/agents/1', { key: null, headers: fromOrigin }),
      'a body over the limit (413)': await call(p, 'POST', '/api/agents', { headers: fromOrigin, body: { title: 'x'.repeat(2048) } }),
      'a body nested too deeply (422)': await call(p, 'POST', '/api/agents', { headers: fromOrigin, raw: '['.repeat(70) + ']'.repeat(70) }),
      'an invalid body (422)': await call(p, 'POST', '/api/agents', { headers: fromOrigin, body: { title: 5 } }),
      'an unknown agent (404)': await call(p, 'GET', '/api/agents/999999', { headers: fromOrigin }),
      'an unknown route (404)': await call(p, 'GET', '/api/no-such-thing', { headers: fromOrigin }),
      'a known agent (200)': await call(p, 'GET', '/api/agents/1', { headers: fromOrigin }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]));
    expect(statuses).toEqual({
      'no key (401)': 401,
      'a body over the limit (413)': 413,
      'a body nested too deeply (422)': 422,
      'an invalid body (422)': 422,
      'an unknown agent (404)': 404,
      'an unknown route (404)': 404,
      'a known agent (200)': 200,
    });
    for (const [what, r] of Object.entries(answers)) {
      expect(r.headers.get('access-control-allow-origin'), what).toBe(ORIGIN);
      expect(r.headers.get('vary'), what).toMatch(/Origin/);
    }
  });

  it('a foreign Host is refused first, with no CORS headers even for an allowed origin', async () => {
    const r = await call(p, 'GET', '/api/agents/1', { headers: { host: 'evil.example', ...fromOrigin } });
    expect(r.status).toBe(403);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    // A loopback Host seen before does not let a foreign one through.
    expect((await call(p, 'GET', '/api/agents/1')).status).toBe(200);
    expect((await call(p, 'GET', '/api/agents/1', { headers: { host: 'evil.example' } })).status).toBe(403);
  });

  it('the public description needs no key; everything else under /api, /v1 and /mcp does', async () => {
    expect((await call(p, 'GET', '/api/openapi.json', { key: null })).status).toBe(200);
    for (const url of ['/api', '/api/agents', '/v1', '/v1/models', '/mcp', '/mcp/x']) {
      expect((await call(p, 'GET', url, { key: null, headers: { accept: 'application/json' } })).status, url).toBe(401);
    }
  });
});

describe('a stored key, looked up once while nothing changes', () => {
  it('is refused by the next request once revoked here, and once revoked by another process after the recheck', async () => {
    const make = async () => (await call(p, 'POST', '/api/keys', { body: { name: 'loop' } })).json as { key: string; id: number };
    const here = await make();
    for (let i = 0; i < 3; i++) expect((await call(p, 'GET', '/api/agents/1', { key: here.key })).status).toBe(200);
    expect((await call(p, 'DELETE', `/api/keys/${here.id}`)).status).toBe(200);
    expect((await call(p, 'GET', '/api/agents/1', { key: here.key })).status).toBe(401);

    const elsewhere = await make();
    for (let i = 0; i < 3; i++) expect((await call(p, 'GET', '/api/agents/1', { key: elsewhere.key })).status).toBe(200);
    const other = connect(path.join(p.dir, DATABASE_FILE));
    try {
      other.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(Date.now() * 1000, elsewhere.id);
    } finally {
      other.close();
    }
    await until('the key revoked by the other connection is refused', async () => (await call(p, 'GET', '/api/agents/1', { key: elsewhere.key })).status === 401);
  });
});

describe("a cached agent's answer", () => {
  it("is the new text once another process changed the agent, and this process's own write at once", async () => {
    const first = await call(p, 'GET', '/api/agents/1');
    expect((await call(p, 'GET', '/api/agents/1')).text).toBe(first.text);
    const other = connect(path.join(p.dir, DATABASE_FILE));
    try {
      other.prepare('UPDATE agents SET title = ?, updated_at = updated_at + 1 WHERE id = 1').run('Renamed elsewhere');
      await until('the other connection\'s title in the answer', async () => (await call(p, 'GET', '/api/agents/1')).json.title === 'Renamed elsewhere');
    } finally {
      other.close();
    }
    const patched = await call(p, 'PATCH', '/api/agents/1', { body: { title: 'Renamed here' } });
    expect(patched.status).toBe(200);
    const after = await call(p, 'GET', '/api/agents/1');
    expect(after.json.title).toBe('Renamed here');
    expect(after.text).toBe(JSON.stringify(after.json));
  });
});

describe('the remembering router', () => {
  const routes = (r: RememberingRouter<string>) => {
    r.add('ALL', '/*', 'gate');
    r.add('GET', '/api/agents/:id', 'getAgent');
    r.add('POST', '/api/agents/:id/execute', 'execute');
  };
  const names = (r: RememberingRouter<string>, method: string, path: string) => r.match(method, path)[0].map(([h, params]) => `${h}${JSON.stringify(params)}`);

  it("answers as the trie does, for each path its own params, again and again", () => {
    const trie = new TrieRouter<string>();
    const r = new RememberingRouter(new TrieRouter<string>());
    routes(r);
    trie.add('ALL', '/*', 'gate');
    trie.add('GET', '/api/agents/:id', 'getAgent');
    trie.add('POST', '/api/agents/:id/execute', 'execute');
    for (let round = 0; round < 3; round++) {
      for (const [m, path] of [['GET', '/api/agents/1'], ['GET', '/api/agents/2'], ['POST', '/api/agents/2/execute'], ['GET', '/api/agents/2/execute'], ['GET', '/nothing']]) {
        expect(names(r, m, path), `${m} ${path}`).toEqual(trie.match(m, path)[0].map(([h, params]) => `${h}${JSON.stringify(params)}`));
      }
    }
    expect(names(r, 'GET', '/api/agents/7')).toEqual(['gate{}', 'getAgent{"id":"7"}']);
  });

  it('a route added after a match is found by the next one', () => {
    const r = new RememberingRouter(new TrieRouter<string>());
    routes(r);
    expect(names(r, 'DELETE', '/api/agents/1')).toEqual(['gate{}']);
    r.add('DELETE', '/api/agents/:id', 'deleteAgent');
    expect(names(r, 'DELETE', '/api/agents/1')).toEqual(['gate{}', 'deleteAgent{"id":"1"}']);
  });

  it('keeps a bounded number of answers: a client walking many ids does not grow it', () => {
    const inner = new TrieRouter<string>();
    let searches = 0;
    const counting = { name: 'counting', add: inner.add.bind(inner), match: (m: string, path: string) => (searches++, inner.match(m, path)) };
    const r = new RememberingRouter(counting);
    routes(r);
    r.match('GET', '/api/agents/1');
    r.match('GET', '/api/agents/1');
    expect(searches).toBe(1);
    for (let i = 2; i < 5000; i++) r.match('GET', `/api/agents/${i}`);
    expect((r as unknown as { kept: Map<string, unknown> }).kept.size).toBeLessThanOrEqual(1000);
    // The first answer was let go: it is searched again.
    searches = 0;
    r.match('GET', '/api/agents/1');
    expect(searches).toBe(1);
  });
});
