/**
 * Limits a hostile local client runs into: body size (413), header size (431, from Node's
 * parser), failed-auth rate limit (429 + Retry-After). All over a real socket on 127.0.0.1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY } from '../api/helpers.js';
import type { RunningServer } from '../../src-main/platform/transports/http/server.js';
import { rawHttp, serveOn, servePlatform, statusOf, stop } from './helpers.js';
import { until } from '../fixtures/until.js';

const LIMIT = 64 * 1024;
const UPLOAD_LIMIT = 256 * 1024;
const p = servePlatform({ maxJsonBytes: LIMIT, maxUploadBytes: UPLOAD_LIMIT });
let s: RunningServer;
beforeAll(async () => {
  s = await serveOn(p);
});
afterAll(() => stop(p, s));

const count = () => (p.db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n;

describe('request limits', () => {
  it('a JSON body over the limit is 413 with a message, declared or streamed, and stores nothing', async () => {
    const before = count();
    const big = JSON.stringify({ memory: 'x'.repeat(LIMIT + 10) });
    const declared = await fetch(`${s.url}/api/memories`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).message).toMatch(/too large/i);
    // Chunked, with no Content-Length to check up front: the limit holds while streaming.
    const chunks = [Buffer.from('{"memory":"'), Buffer.alloc(LIMIT + 10, 'y'), Buffer.from('"}')];
    const body = new ReadableStream({
      pull(c) {
        const next = chunks.shift();
        if (next) c.enqueue(next);
        else c.close();
      },
    });
    const streamed = await fetch(`${s.url}/api/memories`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
    await streamed.arrayBuffer();
    expect(count()).toBe(before);
    // Just under the limit passes.
    const ok = await fetch(`${s.url}/api/memories`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ memory: 'z'.repeat(30_000) }) });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
  });

  it('an upload over the limit is 413, stores nothing and leaves no temp file', async () => {
    const hasUpload = p.app.routes.some((r) => r.method === 'POST' && r.path === '/api/files');
    expect(hasUpload, 'POST /api/files is not routed').toBe(true);
    const files = () => (p.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    const before = files();
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(UPLOAD_LIMIT + 1024, 'a')]), 'big.txt');
    const r = await fetch(`${s.url}/api/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(r.status).toBe(413);
    expect((await r.json()).message).toBeTruthy();
    expect(files()).toBe(before);
    const tmp = path.join(p.dir, 'files', 'tmp');
    // Temp removal is asynchronous: wait for it (a temp file that stays fails here, bounded by limit()).
    await until('the refused upload\'s temp file to be removed', () => !fs.existsSync(tmp) || fs.readdirSync(tmp).length === 0);
  });

  it('oversized headers are refused (431) and the server keeps serving', async () => {
    const raw = await rawHttp(s.port, `GET /api/agents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nX-Big: ${'h'.repeat(64 * 1024)}\r\nConnection: close\r\n\r\n`);
    expect(statusOf(raw)).toBe(431);
    const many = Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const raw2 = await rawHttp(s.port, `GET /api/agents HTTP/1.1\r\nHost: 127.0.0.1\r\n${many}Connection: close\r\n\r\n`);
    expect([431, 400]).toContain(statusOf(raw2));
    const after = await fetch(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });

  it('garbage on the socket gets a 400 and does not take the server down', async () => {
    for (const junk of ['\x00\x01\x02\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n', 'GET /api/agents HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n', 'POST /api/memories HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nzzzzz']) {
      const raw = await rawHttp(s.port, junk, 1500);
      const st = statusOf(raw);
      expect(st === 0 || (st >= 400 && st < 500), JSON.stringify(junk)).toBe(true);
    }
    const after = await fetch(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(after.status).toBe(200);
    await after.arrayBuffer();
  });

  it('the server has header and idle timeouts (slow clients cannot hold sockets forever)', () => {
    expect(s.server.headersTimeout).toBeGreaterThan(0);
    expect(s.server.headersTimeout).toBeLessThanOrEqual(60_000);
    expect(s.server.keepAliveTimeout).toBeGreaterThan(0);
  });
});

describe('failed-auth rate limit', () => {
  it('after repeated failures a key gets 429 with Retry-After; the valid key from the same address does not', async () => {
    let limited: Response | null = null;
    let message = '';
    for (let i = 0; i < 40 && !limited; i++) {
      const r = await fetch(`${s.url}/api/agents`, { headers: { authorization: 'Bearer wrong-key' } });
      if (r.status === 429) limited = r;
      else expect(r.status).toBe(401);
      message = ((await r.json()) as { message: string }).message;
    }
    expect(limited, 'no 429 after 40 failed attempts').not.toBeNull();
    const retry = Number(limited!.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(message).toMatch(/Too many/);
    // Every local client shares 127.0.0.1: a wrong key must not lock the valid one out.
    const good = await fetch(`${s.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(good.status).toBe(200);
    await good.arrayBuffer();
  });
});
