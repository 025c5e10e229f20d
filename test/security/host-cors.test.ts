/**
 * Localhost safety over a real socket on 127.0.0.1: DNS rebinding (a foreign Host) is refused,
 * and a cross-origin browser request gets no CORS headers unless its origin is allowed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY } from '../api/helpers.js';
import type { RunningServer } from '../../src-main/platform/transports/http/server.js';
import { rawHttp, serveOn, servePlatform, statusOf, stop } from './helpers.js';

const p = servePlatform({ allowedOrigins: ['http://localhost:5173'] });
let s: RunningServer;
beforeAll(async () => {
  s = await serveOn(p);
});
afterAll(() => stop(p, s));

const get = (host: string | null, extra = '') =>
  rawHttp(s.port, `GET /api/agents HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Authorization: Bearer ${KEY}\r\n${extra}Connection: close\r\n\r\n`);

describe('DNS rebinding', () => {
  it('answers loopback names', async () => {
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, `app.localhost:${s.port}`, `[::1]:${s.port}`, '127.0.0.1', 'LocalHost']) {
      expect(statusOf(await get(host)), host).toBe(200);
    }
  });

  it('refuses every other Host with 403, before auth and before any data', async () => {
    const hosts = [
      'evil.example',
      `evil.example:${s.port}`,
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      'localhost@evil.example',
      '0.0.0.0',
      '10.0.0.1',
      '192.168.1.1',
      '2130706433',
      '0x7f000001',
      '[::ffff:127.0.0.1]',
      'localhost.',
      '',
    ];
    for (const host of hosts) {
      const raw = await get(host);
      const st = statusOf(raw);
      // localhost. (trailing dot) is the same name as localhost; an empty Host is a bad request.
      if (host === 'localhost.') expect(st, host).toBe(200);
      else {
        expect([400, 403], host).toContain(st);
        expect(raw).not.toContain('"data"');
      }
    }
  });

  it('refuses a request with no Host at all (HTTP/1.0)', async () => {
    const raw = await rawHttp(s.port, `GET /api/agents HTTP/1.0\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
    expect([400, 403]).toContain(statusOf(raw));
    expect(raw).not.toContain('"data"');
  });

  it('is not fooled by X-Forwarded-Host or an absolute request URI', async () => {
    const raw = await get('evil.example', `X-Forwarded-Host: localhost\r\n`);
    expect(statusOf(raw)).toBe(403);
    const abs = await rawHttp(s.port, `GET http://localhost/api/agents HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`);
    expect([400, 403]).toContain(statusOf(abs));
  });
});

describe('CORS', () => {
  const req = (method: string, origin: string | null, extra: Record<string, string> = {}) =>
    fetch(`${s.url}/api/agents`, { method, headers: { authorization: `Bearer ${KEY}`, ...(origin ? { origin } : {}), ...extra } });

  it('a foreign origin gets no CORS headers, also on a successful answer', async () => {
    for (const origin of ['https://evil.example', 'null', 'http://localhost:5174', 'http://localhost:5173.evil.example', 'file://']) {
      const r = await req('GET', origin);
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(r.headers.get('access-control-allow-credentials'), origin).toBeNull();
      await r.arrayBuffer();
    }
  });

  it('a foreign preflight is refused with no CORS headers', async () => {
    const r = await req('OPTIONS', 'https://evil.example', { 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'authorization' });
    expect(r.status).toBe(403);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-methods')).toBeNull();
    await r.arrayBuffer();
  });

  it('an allowed origin gets exactly its own origin back, never *', async () => {
    const pre = await req('OPTIONS', 'http://localhost:5173', { 'access-control-request-method': 'POST' });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const r = await req('GET', 'http://localhost:5173');
    expect(r.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(r.headers.get('vary')).toMatch(/Origin/);
    await r.arrayBuffer();
  });
});
