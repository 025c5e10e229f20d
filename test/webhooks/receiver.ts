import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers to the n-th request (0-based); `hang` never answers. */
export type Behaviour = (n: number, req: Received) => { status: number; body?: string; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The most requests that were open at the same time. */
  maxConcurrent: number;
  /** Resolves when `n` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1, on a free port. */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200, body: 'ok' })): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  let open = 0;
  const stats = { maxConcurrent: 0 };
  // Each receiver's URLs carry its own token: a retry of another test's event that reaches a
  // reused port is refused (410), never counted here.
  const token = crypto.randomBytes(6).toString('hex');
  const server = http.createServer((req, res) => {
    if (!req.url?.includes(token)) {
      req.resume();
      res.writeHead(410).end();
      return;
    }
    open++;
    stats.maxConcurrent = Math.max(stats.maxConcurrent, open);
    res.on('close', () => open--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: performance.now() };
      const n = received.push(r) - 1;
      for (const w of waiters.splice(0)) w();
      const answer = behaviour(n, r);
      if (answer === 'hang') return;
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook-${token}`,
    port,
    received,
    get maxConcurrent() {
      return stats.maxConcurrent;
    },
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (received.length < n) return void waiters.push(check);
          clearTimeout(timer);
          resolve(received.slice());
        };
        check();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}


/** Receivers a test file starts, all closed by `closeAll` (call it in afterEach). */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    async receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
      const r = await startReceiver(...args);
      started.push(r);
      return r;
    },
    closeAll: () => Promise.all(started.splice(0).map((r) => r.close())).then(() => undefined),
  };
}
