import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, call, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform } from '../../src-main/platform/platform.js';

/** One raw HTTP/1.1 exchange on loopback (the request line exactly as given). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let out = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => (out += d));
    s.on('end', () => resolve(out));
    s.on('error', reject);
    s.setTimeout(10_000, () => s.destroy(new Error('no answer')));
    s.write(request);
  });
}

describe('requests that must not steer the server', () => {
  let p: Platform & { dir: string };
  let server: RunningServer;
  beforeAll(async () => {
    p = makePlatform();
    server = await listen(p, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('pagination URLs come from the Host header, not from an absolute-form request line', async () => {
    const host = `127.0.0.1:${server.port}`;
    const answer = await raw(
      server.port,
      `GET http://evil.example/api/agents?per_page=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body.last_page).toBeGreaterThan(1);
    for (const url of [body.first_page_url, body.next_page_url, body.last_page_url, body.path]) expect(url).toMatch(new RegExp(`^http://${host.replace('.', '\\.')}/api/agents`));
    expect(answer).not.toContain('evil.example');
  });

  it('a full disk answers 507 with a plain message, and the data already stored is intact', async () => {
    const before = (await call(p, 'GET', '/api/memories')).json.meta.total;
    // SQLite may not grow the file past its current size: the same SQLITE_FULL a full disk gives.
    const pages = p.db.pragma('page_count', { simple: true }) as number;
    p.db.pragma(`max_page_count = ${pages}`);
    try {
      let r = await call(p, 'POST', '/api/memories', { body: { memory: 'x'.repeat(30_000) } });
      for (let i = 0; i < 50 && r.status !== 507; i++) r = await call(p, 'POST', '/api/memories', { body: { memory: `${i}`.repeat(30_000).slice(0, 30_000) } });
      expect(r.status).toBe(507);
      expect(r.json).toEqual({ message: expect.stringMatching(/^The disk is full/) });
    } finally {
      p.db.pragma('max_page_count = 1073741823');
    }
    const after = (await call(p, 'GET', '/api/memories')).json.meta.total;
    expect(after).toBeGreaterThanOrEqual(before);
    expect((await call(p, 'POST', '/api/memories', { body: { memory: 'room again' } })).status).toBeLessThan(300);
  });
});
