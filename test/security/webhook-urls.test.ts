/**
 * Webhook targets are http(s) only, and a delivery never follows a redirect (a redirect could
 * bounce the signed payload to a place the user never chose).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { servePlatform, stop } from './helpers.js';

const p = servePlatform();
const hits: string[] = [];
let target: http.Server;
let port = 0;
beforeAll(async () => {
  // /redirect answers 302 to /landed on the same loopback server; /landed must never be asked.
  target = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/landed` }).end();
    else if (req.url === '/redirect-307') res.writeHead(307, { location: `http://127.0.0.1:${port}/landed` }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((r) => target.close(r));
  await stop(p);
});

describe('webhook URLs', () => {
  it('only absolute http(s) URLs are accepted', async () => {
    const refused = ['file:///etc/passwd', 'javascript:alert(1)', 'ftp://127.0.0.1/x', 'data:text/plain,hi', 'gopher://127.0.0.1:70/', 'ws://127.0.0.1/', '/relative', '127.0.0.1:9/x', 'http://', ''];
    for (const url of refused) {
      const r = await call(p, 'POST', '/api/agents/1/webhooks', { body: { url, method: 'POST' } });
      expect(r.status, url).toBe(422);
      expect(r.json.errors, url).toHaveProperty('url');
    }
    // The same refusal when an existing webhook is changed, and its URL stays as it was.
    const kept = await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: 'http://127.0.0.1:9/kept', method: 'POST' } });
    expect(kept.status).toBe(201);
    for (const url of refused) {
      const r = await call(p, 'PATCH', `/api/webhooks/${kept.json.id}`, { body: { url } });
      expect(r.status, url).toBe(422);
      expect(r.json.errors, url).toHaveProperty('url');
    }
    expect(p.db.prepare('SELECT url FROM webhooks WHERE id = ?').get(kept.json.id)).toEqual({ url: 'http://127.0.0.1:9/kept' });
    for (const url of ['http://127.0.0.1:9/hook', 'https://localhost:9/x']) {
      expect((await call(p, 'POST', '/api/agents/1/webhooks', { body: { url, method: 'POST' } })).status, url).toBe(201);
    }
  });

  it('a delivery does not follow redirects and records why it failed', async () => {
    for (const path of ['/redirect', '/redirect-307']) {
      const made = await call(p, 'POST', '/api/agents/1/webhooks', { body: { url: `http://127.0.0.1:${port}${path}`, method: 'POST' } });
      expect(made.status).toBe(201);
      const r = await call(p, 'POST', `/api/webhooks/${made.json.id}/test`);
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.json)).toMatch(/Redirect \(30[27]\) not followed/);
    }
    expect(hits).toEqual(['/redirect', '/redirect-307']);
  });
});
