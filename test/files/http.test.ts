import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, makePlatform } from '../api/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { until as waitUntil, limit } from '../fixtures/until.js';

const rows = (p: ReturnType<typeof makePlatform>) => (p.db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
const stored = (dir: string) => fs.readdirSync(path.join(dir, 'files')).filter((n) => n !== 'tmp');
const temp = (dir: string) => fs.readdirSync(path.join(dir, 'files', 'tmp'));

const until = (check: () => boolean, ms = 10_000) => waitUntil('the condition', check, ms, 20);

const boundary = 'AgentDeskBoundary';
const head = (name: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

/** Streams `total` bytes of file content in 1 MiB writes of one reused buffer (never `total` in memory). */
function streamUpload(url: string, total: number, opts: { declareLength?: boolean; abortAfter?: number } = {}): { req: http.ClientRequest; done: Promise<{ status: number; body: string } | 'aborted'> } {
  const u = new URL(`${url}/api/files`);
  const headers: Record<string, string | number> = { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` };
  const h = head('big.txt');
  if (opts.declareLength) headers['content-length'] = h.length + total + tail.length;
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers, agent: false });
  const done = new Promise<{ status: number; body: string } | 'aborted'>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err) => (opts.abortAfter !== undefined ? resolve('aborted') : reject(err)));
  });
  const chunk = Buffer.alloc(1 << 20, 0x61);
  let sent = 0;
  let stopped = false;
  req.on('response', () => (stopped = true));
  req.on('error', () => (stopped = true));
  const pump = () => {
    while (!stopped && sent < total) {
      if (opts.abortAfter !== undefined && sent >= opts.abortAfter) return;
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once('drain', pump);
    }
    if (!stopped && sent >= total) req.end(tail);
  };
  req.write(h);
  pump();
  return { req, done };
}

describe('uploads over real HTTP', () => {
  const p = makePlatform();
  let server: RunningServer;
  beforeAll(async () => {
    server = await listen(p, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });

  it('a 201 MB upload with its length declared is refused at once: 413, nothing on disk', async () => {
    const { done } = streamUpload(server.url, 201 * 1024 * 1024, { declareLength: true });
    const r = await done;
    expect(r).not.toBe('aborted');
    expect((r as { status: number }).status).toBe(413);
    expect(JSON.parse((r as { body: string }).body)).toEqual({ message: 'The file must not be greater than 200 MB.' });
    expect(temp(p.dir)).toEqual([]);
    expect(stored(p.dir)).toEqual([]);
    expect(rows(p)).toBe(0);
  });

  it('a 201 MB chunked upload is cut at the limit: 413, the temp bytes removed, no row', async () => {
    const { done } = streamUpload(server.url, 201 * 1024 * 1024);
    const r = await done;
    expect(r).not.toBe('aborted');
    expect((r as { status: number }).status).toBe(413);
    await until(() => temp(p.dir).length === 0);
    expect(stored(p.dir)).toEqual([]);
    expect(rows(p)).toBe(0);
  }, limit(60_000));

  it('a client that disconnects mid-upload leaves nothing on disk and no row', async () => {
    const { req, done } = streamUpload(server.url, 50 * 1024 * 1024, { abortAfter: 8 * 1024 * 1024 });
    await until(() => temp(p.dir).length > 0);
    await until(() => fs.statSync(path.join(p.dir, 'files', 'tmp', temp(p.dir)[0])).size > 1024 * 1024);
    req.destroy();
    expect(await done).toBe('aborted');
    await until(() => temp(p.dir).length === 0);
    expect(stored(p.dir)).toEqual([]);
    expect(rows(p)).toBe(0);
  });

  it('a normal upload over HTTP is stored whole', async () => {
    const { done } = streamUpload(server.url, 3 * 1024 * 1024 + 17);
    const r = (await done) as { status: number; body: string };
    expect(r.status).toBe(200);
    const file = JSON.parse(r.body);
    expect(file.bytes).toBe(3 * 1024 * 1024 + 17);
    expect(fs.statSync(path.join(p.dir, 'files', String(file.id))).size).toBe(file.bytes);
    expect(temp(p.dir)).toEqual([]);
  });
});
