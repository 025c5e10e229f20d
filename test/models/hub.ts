/**
 * A stand-in for Hugging Face on 127.0.0.1: serves one generated GGUF (the gguf tests' tiny
 * llama) at `/org/repo/resolve/main/<name>`, honours `Range: bytes=N-` with 206 and
 * Content-Range, sends the file's SHA-256 in `x-linked-etag` as Hugging Face does for LFS files.
 *
 *   hub.stallAfter(n)   the next responses send bytes up to offset n, then hold the connection
 *   hub.release()       ends the held responses' sockets (as a dropped connection would)
 *   hub.requests        every request: { path, range }
 *   hub.redirectUrl     redirects to /cdn/<name>, with the checksum on the redirect only
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';

export interface Hub {
  origin: string;
  /** the model file's download URL */
  url: string;
  name: string;
  bytes: Buffer;
  sha256: string;
  requests: { path: string; range: string | null }[];
  /** a link that redirects to a CDN path, the checksum on the redirect only (as Hugging Face) */
  redirectUrl: string;
  /** what the redirect claims the file's SHA-256 is (null: the true one) */
  redirectChecksum(sha: string | null): void;
  stallAfter(n: number | null): void;
  /** Sends no checksum header (as a hub without one). */
  withoutChecksum(on: boolean): void;
  release(): void;
  close(): Promise<void>;
}

export async function startHub(name = 'tiny-llama-q8_0.gguf'): Promise<Hub> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-hub-'));
  const file = path.join(dir, name);
  writeTinyLlama(file, { seed: 7 });
  const bytes = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const requests: Hub['requests'] = [];
  let stall: number | null = null;
  let checksum = true;
  let redirectSha: string | null = null;
  const held = new Set<http.ServerResponse>();
  const sockets = new Set<import('node:net').Socket>();

  const server = http.createServer((req, res) => {
    const range = req.headers.range ?? null;
    requests.push({ path: req.url ?? '', range });
    // As Hugging Face does: the resolve link redirects to the CDN, the checksum is on the redirect.
    if (req.url === `/org/repo/redirect/main/${name}`) {
      res.writeHead(302, { location: `/cdn/${name}`, 'x-linked-etag': `"${redirectSha ?? sha256}"`, 'x-linked-size': String(bytes.length) }).end();
      return;
    }
    const cdn = req.url === `/cdn/${name}`;
    if (req.url !== `/org/repo/resolve/main/${name}` && !cdn) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Entry not found');
      return;
    }
    let start = 0;
    const m = range ? /^bytes=(\d+)-$/.exec(range) : null;
    if (m) start = Number(m[1]);
    if (start >= bytes.length) {
      res.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
      return;
    }
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': bytes.length - start };
    if (checksum && !cdn) headers['x-linked-etag'] = `"${sha256}"`;
    if (m) headers['content-range'] = `bytes ${start}-${bytes.length - 1}/${bytes.length}`;
    res.writeHead(m ? 206 : 200, headers);
    if (stall !== null && stall > start) {
      res.write(bytes.subarray(start, stall));
      held.add(res);
      return;
    }
    res.end(bytes.subarray(start));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/org/repo/resolve/main/${name}`,
    name,
    bytes,
    sha256,
    requests,
    redirectUrl: `${origin}/org/repo/redirect/main/${name}`,
    redirectChecksum: (sha) => (redirectSha = sha),
    stallAfter: (n) => (stall = n),
    withoutChecksum: (on) => (checksum = !on),
    release() {
      for (const res of held) res.destroy();
      held.clear();
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
