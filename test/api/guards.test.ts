/**
 * The bad inputs every endpoint must survive with the contract's 4xx body, never a 500:
 * keys, Host, CORS, x-workspace-id, malformed or oversized bodies, unknown routes and methods.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectMessage } from './spec-shapes.js';

/** Every operation of the headless platform, with a valid-looking body where one is needed. */
const OPERATIONS: [string, string, unknown?][] = [
  ['GET', '/api/resources'],
  ['GET', '/api/agents'],
  ['GET', '/api/agents/1'],
  ['POST', '/api/agents', { title: 'x' }],
  ['PATCH', '/api/agents/1', { title: 'x' }],
  ['DELETE', '/api/agents/1'],
  ['GET', '/api/memories'],
  ['POST', '/api/memories', { memory: 'x' }],
  ['PATCH', '/api/memories/1', { memory: 'x' }],
  ['DELETE', '/api/memories/1'],
  ['GET', '/api/memory-collections'],
  ['POST', '/api/memory-collections', { name: 'x' }],
  ['PUT', '/api/memory-collections/1', { name: 'x' }],
  ['DELETE', '/api/memory-collections/1'],
  ['POST', '/api/agents/1/webhooks', { url: 'http://localhost/x', method: 'POST' }],
  ['GET', '/api/agents/1/webhooks'],
  ['GET', '/api/webhooks'],
  ['PATCH', '/api/webhooks/1', { status: 'inactive' }],
  ['DELETE', '/api/webhooks/1'],
  ['GET', '/api/keys'],
  ['POST', '/api/keys', { name: 'x' }],
  ['DELETE', '/api/keys/1'],
];

describe('authentication', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('every operation answers 401 {"message":"Unauthenticated."} with WWW-Authenticate: Bearer, without a key and with a wrong one', async () => {
    for (const [method, url, body] of OPERATIONS) {
      // A platform per operation: wrong keys add up to the 429 limit (tested below).
      const q = makePlatform();
      try {
        for (const headers of [{} as Record<string, string>, { authorization: 'Bearer wrong-key' }, { authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { authorization: `Bearer ${'k'.repeat(4096)}` }]) {
          const r = await call(q, method, url, { key: null, body, headers });
          expectMessage(r, 401, 'Unauthenticated.');
          expect(r.headers.get('www-authenticate')).toBe('Bearer');
        }
        // Nothing was done by the refused writes.
        expect((await call(q, 'GET', '/api/memories')).json.meta.total).toBe(0);
        expect((await call(q, 'GET', '/api/memory-collections')).json.meta.total).toBe(0);
        expect((await call(q, 'GET', '/api/agents/1')).status).toBe(200);
        expect((await call(q, 'GET', '/api/keys')).json.data).toEqual([]);
      } finally {
        await closePlatform(q);
      }
    }
  });

  it('the OpenAPI document and the docs page need no key', async () => {
    expect((await call(p, 'GET', '/api/openapi.json', { key: null })).status).toBe(200);
    const docs = await call(p, 'GET', '/api/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('a wrong key tried again and again is slowed down with 429 and Retry-After', async () => {
    const q = makePlatform();
    try {
      let r;
      for (let i = 0; i < 40; i++) r = await call(q, 'GET', '/api/agents', { key: 'bad-key' });
      expect(r!.status).toBe(429);
      expect(Number(r!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(typeof r!.json.message).toBe('string');
    } finally {
      await closePlatform(q);
    }
  });
});

describe('Host guard (DNS rebinding)', () => {
  const p = makePlatform({ allowedHosts: ['agent-desk.lan'] });
  afterAll(() => closePlatform(p));

  it('refuses a foreign Host with 403 even with a valid key, and accepts loopback names', async () => {
    for (const host of ['evil.example', 'evil.example:8787', '127.0.0.1.evil.example', '10.0.0.5:8787', 'localhost.evil.example']) {
      const r = await call(p, 'GET', '/api/agents/1', { headers: { host } });
      expectMessage(r, 403);
    }
    for (const host of ['127.0.0.1:8787', 'localhost:8787', 'localhost', '[::1]:8787', '127.0.0.2', 'agent-desk.lan:8787']) {
      expect((await call(p, 'GET', '/api/agents/1', { headers: { host } })).status, host).toBe(200);
    }
  });
});

describe('CORS', () => {
  const p = makePlatform({ allowedOrigins: ['http://localhost:5173'] });
  afterAll(() => closePlatform(p));

  it('no CORS headers for an origin that is not allowed', async () => {
    const r = await call(p, 'GET', '/api/agents', { headers: { origin: 'https://evil.example' } });
    expect(r.status).toBe(200);
    for (const h of r.headers.keys()) expect(h.startsWith('access-control-')).toBe(false);
    const pre = await call(p, 'OPTIONS', '/api/agents', { key: null, headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(403);
    for (const h of pre.headers.keys()) expect(h.startsWith('access-control-')).toBe(false);
  });

  it('headers for an allowed origin, on answers and on preflights', async () => {
    const r = await call(p, 'GET', '/api/agents', { headers: { origin: 'http://localhost:5173' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(r.headers.get('vary')).toMatch(/Origin/);
    const err = await call(p, 'GET', '/api/agents', { key: 'wrong', headers: { origin: 'http://localhost:5173' } });
    expect(err.status).toBe(401);
    expect(err.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const pre = await call(p, 'OPTIONS', '/api/memories', { key: null, headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization/);
  });

  it('origins and hosts allowed in Settings take effect at once', async () => {
    const origin = 'https://tools.example';
    const host = 'desk.example:8787';
    expect((await call(p, 'GET', '/api/agents', { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
    expect((await call(p, 'GET', '/api/agents', { headers: { host } })).status).toBe(403);
    p.services.settings.set('localhost.allowed_origins', [origin]);
    p.services.settings.set('localhost.allowed_hosts', ['desk.example']);
    expect((await call(p, 'GET', '/api/agents', { headers: { origin } })).headers.get('access-control-allow-origin')).toBe(origin);
    expect((await call(p, 'GET', '/api/agents', { headers: { host } })).status).toBe(200);
    p.services.settings.set('localhost.allowed_origins', []);
    p.services.settings.set('localhost.allowed_hosts', []);
    expect((await call(p, 'GET', '/api/agents', { headers: { origin } })).headers.get('access-control-allow-origin')).toBeNull();
    expect((await call(p, 'GET', '/api/agents', { headers: { host } })).status).toBe(403);
  });
});

describe('x-workspace-id', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('non-integer 422, foreign 403, unknown is the selected one, own workspace accepted', async () => {
    for (const v of ['abc', '1.5', '-1', '1e3', '0x2']) {
      expect422(await call(p, 'POST', '/api/agents', { body: { title: 'x' }, headers: { 'x-workspace-id': v } }), 'x-workspace-id');
    }
    p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (2, 'Someone else', 0), (3, 'Team', 0)").run();
    p.db.prepare("INSERT INTO workspace_members(workspace_id, user_id, role) VALUES (3, 1, 'member')").run();
    expectMessage(await call(p, 'POST', '/api/agents', { body: { title: 'x' }, headers: { 'x-workspace-id': '2' } }), 403);
    // An id that names no workspace here (copied from the hosted platform) means the selected one.
    const copied = await call(p, 'POST', '/api/agents', { body: { title: 'Copied id' }, headers: { 'x-workspace-id': '999' } });
    expect(copied.status).toBe(201);
    expect(copied.json.workspace_id).toBe(1);
    const ok = await call(p, 'POST', '/api/agents', { body: { title: 'Team agent' }, headers: { 'x-workspace-id': '3' } });
    expect(ok.status).toBe(201);
    expect(ok.json.workspace_id).toBe(3);
    const dflt = await call(p, 'POST', '/api/agents', { body: { title: 'Mine' } });
    expect(dflt.json.workspace_id).toBe(1);
    expect((await call(p, 'GET', '/api/agents?q=Someone')).json.total).toBe(0);
  });
});

describe('bodies, routes and methods', () => {
  const p = makePlatform({ maxJsonBytes: 64 * 1024 });
  afterAll(() => closePlatform(p));
  const json = { 'content-type': 'application/json' };

  it('malformed JSON is 400 {"message"} on every write, and nothing is written', async () => {
    for (const [method, url, body] of OPERATIONS) {
      if (body === undefined) continue;
      for (const raw of ['{"memory": "x"', '{bad json}', '[1,2', '{"a":1}}']) {
        const r = await call(p, method, url, { raw, headers: json });
        expectMessage(r, 400, 'Malformed JSON in request body.');
      }
    }
    expect((await call(p, 'GET', '/api/memories')).json.meta.total).toBe(0);
  });

  it('a JSON body that is not an object is 422; an empty body is an empty object', async () => {
    for (const raw of ['null', '[]', '"memory"', '42', 'true']) expect((await call(p, 'POST', '/api/memories', { raw, headers: json })).status).toBe(422);
    expect422(await call(p, 'POST', '/api/memories', { raw: '', headers: json }), 'memory', 'The memory field is required.');
  });

  it('a body over the limit is 413 {"message"}', async () => {
    const big = JSON.stringify({ memory: 'x'.repeat(100 * 1024) });
    expectMessage(await call(p, 'POST', '/api/memories', { raw: big, headers: json }), 413);
    expect((await call(p, 'GET', '/api/memories')).json.meta.total).toBe(0);
  });

  it('unknown routes are 404 {"message":"Not found."}', async () => {
    for (const url of ['/api/nope', '/api', '/', '/api/agents/1/nope', '/api/memories/1/2/3', '/favicon.ico', '/api/../etc/passwd']) {
      expectMessage(await call(p, 'GET', url), 404, 'Not found.');
    }
    expectMessage(await call(p, 'GET', '/api/nope', { key: null }), 401, 'Unauthenticated.');
    expectMessage(await call(p, 'GET', '/nope', { key: null }), 404, 'Not found.');
  });

  it('a known path under another method is 405 with Allow', async () => {
    const cases: [string, string, string[]][] = [
      ['PUT', '/api/agents', ['GET', 'POST']],
      ['DELETE', '/api/resources', ['GET']],
      ['POST', '/api/agents/1', ['DELETE', 'GET', 'PATCH']],
      ['GET', '/api/memories/1', ['DELETE', 'PATCH']],
      ['PATCH', '/api/memory-collections/1', ['DELETE', 'PUT']],
      ['PUT', '/api/webhooks', ['GET']],
    ];
    for (const [method, url, allowed] of cases) {
      const r = await call(p, method, url, { body: method === 'GET' ? undefined : {} });
      expectMessage(r, 405);
      expect((r.headers.get('allow') ?? '').split(/,\s*/).sort()).toEqual(expect.arrayContaining(allowed));
    }
  });

  it('no operation answers 500 to hostile ids, queries and bodies', async () => {
    const ids = ['0', '-1', 'abc', '1.5', '1e3', '99999999999999999999', '%00', '%F0%9F%98%80', "1'%20OR%201=1"];
    const queries = ['?page=0', '?page=abc', '?per_page=-5', '?per_page=1000000', '?page=1&page=2', '?q=%00', "?q='", '?q=%22%20OR%20', '?type[]=chat', '?collection_id=1e309', '?page=99999999999999999999'];
    const bodies: unknown[] = [{}, [], null, 'x', 0, { memory: null }, { memory: { a: 1 } }, { name: ['x'] }, { title: 'x'.repeat(300) }, { url: 'http://[::1', method: 'POST' }, { collection_id: -1, memory: 'x' }, { questions: [{}] }, { __proto__: { x: 1 }, constructor: { prototype: { y: 1 } } }];
    const seen = new Map<number, number>();
    for (const [method, url, body] of OPERATIONS) {
      const urls = [url, ...ids.map((id) => url.replace(/\/1(?=\/|$)/, `/${id}`)), ...(method === 'GET' ? queries.map((q) => url + q) : [])];
      for (const u of new Set(urls)) {
        const payloads = body === undefined ? [undefined] : bodies;
        for (const b of payloads) {
          const r = await call(p, method, u, { body: b });
          seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
          expect(r.status, `${method} ${u} ${JSON.stringify(b)} -> ${r.text}`).toBeLessThan(500);
          expect(typeof r.json?.message === 'string' || r.status < 300, `${method} ${u}: ${r.text}`).toBe(true);
        }
      }
    }
    expect(seen.get(422)).toBeGreaterThan(0);
    expect(seen.get(404)).toBeGreaterThan(0);
  });
});
