/**
 * A provider that closed a kept-alive connection while it sat idle: the next request on it fails
 * before any answer. That request never reached the model, so it is sent once more on a fresh
 * connection; a failure on a fresh connection is not retried (it may have reached the model).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { streamRequest } from '../../src-main/platform/engine/providers/http.js';

type Plan = (nthOnSocket: number) => 'answer' | 'reset';

async function provider(plan: Plan) {
  const seen = new Map<Socket, number>();
  const log: { socket: number; nth: number }[] = [];
  const sockets: Socket[] = [];
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const nth = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, nth);
      log.push({ socket: sockets.indexOf(req.socket), nth });
      if (plan(nth) === 'reset') req.socket.resetAndDestroy();
      else res.end('{"ok":true}');
    });
  });
  server.on('connection', (s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  return { url, log, sockets, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const post = (url: string) => streamRequest(url, { headers: { 'content-type': 'application/json' }, body: '{}', signal: new AbortController().signal }, 'the test provider');

describe('streaming requests on kept-alive connections', () => {
  let close: (() => Promise<void>) | null = null;
  afterEach(async () => {
    await close?.();
    close = null;
  });

  it('sends a request again on a fresh connection when a reused one was dropped before any answer', async () => {
    // Every second request on a connection finds it closed.
    const p = await provider((nth) => (nth === 2 ? 'reset' : 'answer'));
    close = p.close;
    expect(await (await post(p.url)).text()).toBe('{"ok":true}');
    const second = await post(p.url);
    expect(second.status).toBe(200);
    expect(await second.text()).toBe('{"ok":true}');
    // Request 2 went out on the reused connection and was dropped; its retry used a new one.
    expect(p.log).toEqual([
      { socket: 0, nth: 1 },
      { socket: 0, nth: 2 },
      { socket: 1, nth: 1 },
    ]);
  });

  it('sends it again on a new connection, not on another kept-alive one the provider may have closed too', async () => {
    // Two connections kept alive, then the provider drops each on its second request.
    const p = await provider((nth) => (nth === 2 ? 'reset' : 'answer'));
    close = p.close;
    const warm = await Promise.all([post(p.url), post(p.url)]);
    for (const r of warm) expect(await r.text()).toBe('{"ok":true}');
    expect(p.sockets).toHaveLength(2);
    const again = await post(p.url);
    expect(await again.text()).toBe('{"ok":true}');
    // One reused connection was dropped; the retry went out on a third, new connection.
    expect(p.log.slice(2)).toEqual([
      { socket: expect.any(Number), nth: 2 },
      { socket: 2, nth: 1 },
    ]);
  });

  it('does not send again when a fresh connection fails: it reports the provider unreachable', async () => {
    const p = await provider(() => 'reset');
    close = p.close;
    await expect(post(p.url)).rejects.toMatchObject({ code: 'provider_unreachable', message: expect.stringContaining('ECONNRESET') });
    expect(p.log).toHaveLength(1);
  });
});
