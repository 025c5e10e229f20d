import fs from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, call, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { until, limit } from '../fixtures/until.js';

/** A raw client: what it received, and whether the server closed it. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '', closed: false };
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (state.received += d));
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => ((state.closed = true), r())));
  return { socket, state, closed };
}


/** Sends one byte every `everyMs` until stopped or the socket closes. */
function trickle(socket: net.Socket, bytes: string, everyMs: number): () => void {
  let i = 0;
  const t = setInterval(() => {
    if (socket.destroyed || i >= bytes.length) return clearInterval(t);
    socket.write(bytes[i++]);
  }, everyMs);
  return () => clearInterval(t);
}

describe('connections from hostile clients', () => {
  let p: Platform & { dir: string };
  let server: RunningServer;
  beforeAll(async () => {
    p = makePlatform();
    // Short windows so the test is quick; the defaults are in connection-limits.ts.
    server = await listen(p, { port: 0, limits: { headersTimeoutMs: 400, bodyWindowMs: 300, bodyMinBytes: 256, checkEveryMs: 100 } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  const head = (auth: string, length: number) =>
    `POST /api/agents HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('answers 401 to a wrong key before reading the body', async () => {
    const c = rawClient(server.port);
    // A 100 KB body announced, one byte sent: the answer must not wait for the rest.
    c.socket.write(`${head('Bearer wrong-key', 100_000)}{`);
    await until('the 401', () => c.state.received.includes('\r\n\r\n'));
    expect(c.state.received).toMatch(/^HTTP\/1\.1 401 /);
    c.socket.destroy();
  });

  it('cuts off a client that trickles its body, and keeps serving others', async () => {
    const clients = Array.from({ length: 20 }, () => rawClient(server.port));
    const stops = clients.map((c) => {
      c.socket.write(head(`Bearer ${KEY}`, 5_000));
      return trickle(c.socket, '{"name":"'.padEnd(5_000, 'x'), 50);
    });
    try {
      await Promise.race([Promise.all(clients.map((c) => c.closed)), until('the tricklers to be cut', () => false, 15_000)]);
      for (const c of clients) expect(c.state.closed).toBe(true);
      expect((await fetch(`${server.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
    } finally {
      stops.forEach((s) => s());
      clients.forEach((c) => c.socket.destroy());
    }
  }, limit(20_000));

  it('cuts off a client that trickles its headers', async () => {
    const c = rawClient(server.port);
    c.socket.write(`GET /api/agents HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n`);
    const stop = trickle(c.socket, 'X-Slow: '.padEnd(10_000, 'a'), 50);
    try {
      await Promise.race([c.closed, until('the header trickler to be cut', () => false, 15_000)]);
      expect(c.state.closed).toBe(true);
      expect(c.state.received).toMatch(/^HTTP\/1\.1 408 |^$/);
    } finally {
      stop();
      c.socket.destroy();
    }
  }, limit(20_000));

  it('limits failed attempts per presented key: a bad key never blocks a good one', async () => {
    const bad = (key: string) => call(p, 'GET', '/api/agents', { key });
    for (let i = 0; i < 30; i++) expect((await bad('guess-one')).status).toBe(401);
    const blocked = await bad('guess-one');
    expect(blocked.status).toBe(429);
    expect(blocked.json.message).toMatch(/Too many failed authentication attempts with this key/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The valid key, and another wrong one, are judged on their own.
    expect((await call(p, 'GET', '/api/agents')).status).toBe(200);
    expect((await bad('guess-two')).status).toBe(401);
    // Over real sockets from the same address too.
    const res = await fetch(`${server.url}/api/agents`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
  });
});
