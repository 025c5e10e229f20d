import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { limit } from '../fixtures/until.js';

const REMOTE_KEY = 'remote-key-first-listing-7d1e';

/**
 * Lean start without a changed answer (CONTRACT.md "Lean start"): the first GET /api/agents after
 * start waits for the first sync with the remote platform, so a client that lists once at start
 * sees the remote agents; a remote that does not answer holds the listing at most 5 s.
 */
describe('the first listing after start waits for the first remote sync', () => {
  let remote: Platform & { dir: string };
  let server: RunningServer;
  let proxy: http.Server;
  let proxyUrl: string;
  /** How long the proxy holds each answer, and whether it answers at all. */
  let delayMs = 0;
  let silent = false;

  beforeAll(async () => {
    remote = makePlatform({ envApiKey: REMOTE_KEY });
    expect((await call(remote, 'POST', '/api/agents', { key: REMOTE_KEY, body: { title: 'Slow Team Agent' } })).status).toBe(201);
    server = await listen(remote, { port: 0 });
    // The remote behind a loopback proxy that answers late (or never).
    proxy = http.createServer((req, res) => {
      if (silent) return;
      setTimeout(async () => {
        const r = await fetch(`${server.url}${req.url}`, { headers: { authorization: String(req.headers.authorization ?? '') } });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await r.arrayBuffer()));
      }, delayMs);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((r) => proxy.close(r));
    await server.close();
    await closePlatform(remote);
  });

  const titles = async (p: Platform) => ((await call(p, 'GET', '/api/agents?per_page=100')).json.data as { title: string }[]).map((a) => a.title);

  it('lists the remote agents on the very first request, though the remote answers 800 ms late', async () => {
    delayMs = 800;
    const local = makePlatform({ env: { AGENT_DESK_REMOTE_URL: proxyUrl, AGENT_DESK_REMOTE_API_KEY: REMOTE_KEY } });
    try {
      expect(await titles(local)).toContain('Slow Team Agent');
    } finally {
      await closePlatform(local);
    }
  });

  it('a remote that never answers holds the first listing at most 5 s, then the local agents are listed', async () => {
    silent = true;
    const local = makePlatform({ env: { AGENT_DESK_REMOTE_URL: proxyUrl, AGENT_DESK_REMOTE_API_KEY: REMOTE_KEY } });
    try {
      const t0 = performance.now();
      const listed = await titles(local);
      const waited = performance.now() - t0;
      expect(listed).not.toContain('Slow Team Agent');
      expect(listed.length).toBeGreaterThan(0);
      expect(waited).toBeLessThan(limit(5_000) + 2_000);
      // Later listings do not wait again.
      const t1 = performance.now();
      await titles(local);
      expect(performance.now() - t1).toBeLessThan(limit(1_000));
    } finally {
      silent = false;
      await closePlatform(local);
    }
  }, limit(30_000));
});
