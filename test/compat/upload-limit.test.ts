/**
 * Uploads over the limit as real clients send them, over real HTTP on loopback: Node's fetch
 * sends the whole body before it reads, so the server must answer 413 at once and drain the
 * rest (bounded) instead of resetting the connection. One receiver serves files and archives.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, KEY, makePlatform } from '../api/helpers.js';
import { upload } from '../files/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { LINGER_BYTES } from '../../src-main/platform/transports/http/linger.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../src-main/platform/transports/http/connection-limits.js';
import { limit, until as waitUntil } from '../fixtures/until.js';
import { drainedOrClosed } from '../fixtures/drained.js';

const MB = 1024 * 1024;
const rows = (p: ReturnType<typeof makePlatform>) => (p.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
const onDisk = (dir: string) => ({
  stored: fs.readdirSync(path.join(dir, 'files')).filter((n) => n !== 'tmp'),
  temp: fs.readdirSync(path.join(dir, 'files', 'tmp')),
});

describe('uploads over the limit, as real clients send them', () => {
  const p = makePlatform(); // the default limit: 200 MB
  let server: RunningServer;
  beforeAll(async () => {
    // Client and server share this process's event loop here: on loaded cores, building and sending
    // 201 MB can keep the server from parsing headers within its 20 s bound (a 408, not what is tested).
    server = await listen(p, { host: '127.0.0.1', port: 0, limits: { headersTimeoutMs: limit(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs) } });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it("Node's fetch uploading 201 MB reads the 413 and its JSON body; nothing is left on disk", async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(201 * MB, 0x61)]), 'big.txt');
    const res = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: 'The file must not be greater than 200 MB.' });
    expect(rows(p)).toBe(0);
    expect(onDisk(p.dir)).toEqual({ stored: [], temp: [] });
  }, limit(120_000)); // 201 MB through fetch's multipart encoder and loopback

  it('an archive import of 201 MB gets the same answer from the same receiver', async () => {
    const form = new FormData();
    form.append('archive', new Blob([Buffer.alloc(201 * MB, 0x61)]), 'backup.tar');
    const res = await fetch(`${server.url}/api/import`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'The archive must not be greater than 200 MB.' });
    expect(onDisk(p.dir).temp).toEqual([]);
  }, limit(120_000));

  it('the refused body is drained after the answer (no reset while the client still sends), then the connection closes', async () => {
    const sock = net.connect(Number(new URL(server.url).port), '127.0.0.1');
    let received = '';
    let closed = false;
    let writeError: Error | null = null;
    sock.on('data', (d) => (received += d));
    sock.on('error', (err) => (writeError ??= err));
    sock.on('close', () => (closed = true));
    await new Promise<void>((r) => sock.once('connect', () => r()));
    const declared = 300 * MB; // clearly over the limit with its framing allowance
    sock.write(
      `POST /api/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: ${declared}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(MB, 0x61);
    const send = async (bytes: number) => {
      for (let sent = 0; sent < bytes && !closed && !writeError; sent += chunk.length) {
        if (!sock.write(chunk)) await drainedOrClosed(sock);
      }
    };
    const until = (check: () => boolean) => waitUntil('the socket', check, 30_000, 20);

    // The answer comes at once, before the body is sent.
    await until(() => received.includes('\r\n\r\n{') || closed);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('{"message":"The file must not be greater than 200 MB."}');
    // The client keeps sending as if it had not read yet: the server reads and discards it.
    await send(16 * MB);
    expect(writeError).toBeNull();
    expect(closed).toBe(false);
    // Past the drain bound, the server closes the connection instead of reading 201 MB.
    await send(declared);
    await until(() => closed);
    expect(LINGER_BYTES).toBeLessThan(declared);
    sock.destroy();
    expect(onDisk(p.dir).temp).toEqual([]);
  });
});

describe('one receiver, one limit rule', () => {
  it('a file and an archive of exactly the limit are accepted by the receiver; one byte more is 413 for both', async () => {
    const small = makePlatform({ maxUploadBytes: 32 * 1024 });
    try {
      expect((await upload(small, 'exact.txt', Buffer.alloc(32 * 1024, 97))).status).toBe(200);
      expect((await upload(small, 'over.txt', Buffer.alloc(32 * 1024 + 1, 98))).status).toBe(413);
      // An archive of exactly the limit reaches the importer (which refuses these bytes as not a tar: 422, not 413).
      const exact = await upload(small, 'backup.tar', Buffer.alloc(32 * 1024, 0), { url: '/api/import', field: 'archive' });
      expect(exact.status).toBe(422);
      expect(exact.json.errors.archive).toBeDefined();
      const over = await upload(small, 'backup.tar', Buffer.alloc(32 * 1024 + 1, 0), { url: '/api/import', field: 'archive' });
      expect(over.status).toBe(413);
      expect(over.json).toEqual({ message: expect.stringMatching(/^The archive must not be greater than /) });
      expect(onDisk(small.dir).temp).toEqual([]);
    } finally {
      await small.close();
      fs.rmSync(small.dir, { recursive: true, force: true });
    }
  });

  it('an archive upload whose client goes away leaves no temp file (abort honoured, as for files)', async () => {
    const small = makePlatform();
    try {
      const ctl = new AbortController();
      let sent = 0;
      const head = `--B\r\nContent-Disposition: form-data; name="archive"; filename="backup.tar"\r\nContent-Type: application/x-tar\r\n\r\n`;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent === 0) c.enqueue(new TextEncoder().encode(head));
          sent += 64 * 1024;
          c.enqueue(new Uint8Array(64 * 1024));
          // Abort once part of the archive is on its way; the stream itself never ends.
          if (sent === 4 * 64 * 1024) ctl.abort();
        },
      });
      const res = await Promise.resolve(
        small.app.request(`${BASE}/api/import`, {
          method: 'POST',
          headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, 'content-type': 'multipart/form-data; boundary=B' },
          body,
          duplex: 'half',
          signal: ctl.signal,
        } as RequestInit),
      ).catch((err: Error) => err);
      if (res instanceof Response) {
        expect(res.status).toBe(400);
        expect(await res.json()).toEqual({ message: 'The upload was interrupted.' });
      }
      // Either way the partial archive is gone once the receiver has settled.
      const end = Date.now() + limit(10_000);
      while (onDisk(small.dir).temp.length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(onDisk(small.dir).temp).toEqual([]);
    } finally {
      await small.close();
      fs.rmSync(small.dir, { recursive: true, force: true });
    }
  });
});
