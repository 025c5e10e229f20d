/**
 * Model downloads have limits: a size cap (the declared size is checked before any byte is
 * written; a body without a length stops at the cap) and the GGUF magic checked in the first
 * bytes, so a web page or an endless stream fails fast with a clear reason and leaves no file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { until } from '../fixtures/until.js';
import type { Platform } from '../../src-main/platform/platform.js';

const CAP_MB = 1;
const CAP = CAP_MB * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x2a);

/** What the stand-in server sent on each path, and whether the client hung up. */
const sent = new Map<string, { bytes: number; closed: boolean }>();

let server: RecordingServer;
let p: Platform & { dir: string };

/** Writes `first`, then CHUNKs for as long as the client reads (never ending on its own). */
function endless(res: import('node:http').ServerResponse, key: string, first: Buffer) {
  const stat = { bytes: 0, closed: false };
  sent.set(key, stat);
  res.on('close', () => (stat.closed = true));
  const write = (b: Buffer) => {
    stat.bytes += b.length;
    return res.write(b);
  };
  const pump = () => {
    while (!stat.closed && write(CHUNK));
    if (!stat.closed) res.once('drain', pump);
  };
  write(first);
  pump();
}

beforeAll(async () => {
  server = await startRecordingServer(({ res, url }) => {
    const key = url.pathname;
    if (key.endsWith('/endless.gguf')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return endless(res, key, Buffer.from('GGUF\x03\x00\x00\x00'));
    }
    if (key.endsWith('/page.gguf')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return endless(res, key, Buffer.from('<!doctype html><html><body>Sign in to download</body></html>'));
    }
    if (key.endsWith('/huge.gguf')) {
      // Declares ten times the cap; sends bytes slowly enough that only a check of the declaration stops it early.
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(10 * CAP) });
      return endless(res, key, Buffer.from('GGUF\x03\x00\x00\x00'));
    }
    res.writeHead(404).end();
  });
  p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_MAX_DOWNLOAD_MB: String(CAP_MB) } });
});
afterAll(async () => {
  await closePlatform(p);
  await server.close();
});

async function failedDownload(name: string): Promise<any> {
  const made = await call(p, 'POST', '/api/models/downloads', { body: { url: `${server.origin}/org/repo/resolve/main/${name}` } });
  expect(made.status).toBe(201);
  return until(`download ${name} to fail`, async () => {
    const d = (await call(p, 'GET', `/api/models/downloads/${made.json.id}`)).json;
    return d.status === 'failed' ? d : null;
  });
}

const modelsDir = () => path.join(p.dir, 'models');
const leftovers = () => (fs.existsSync(modelsDir()) ? fs.readdirSync(modelsDir()) : []);

describe('model download limits', () => {
  it('an endless download stops at the cap', async () => {
    const d = await failedDownload('endless.gguf');
    expect(d.error).toMatch(/more than the download limit of 0\.001 GB/);
    expect(d.bytes).toBeLessThanOrEqual(CAP);
    expect(leftovers()).toEqual([]);
    await until('the server to see the client hang up', () => sent.get('/org/repo/resolve/main/endless.gguf')?.closed);
  });

  it('a non-GGUF body fails in its first bytes', async () => {
    const d = await failedDownload('page.gguf');
    expect(d.error).toMatch(/did not send a GGUF model: the file starts with "<!do", not "GGUF" \(it looks like a web page\)/);
    // Nothing of the page was kept, and the transfer was cut off long before the cap.
    expect(d.bytes).toBe(0);
    expect(leftovers()).toEqual([]);
    await until('the server to see the client hang up', () => sent.get('/org/repo/resolve/main/page.gguf')?.closed);
  });

  it('a declared size over the cap fails before any byte is written', async () => {
    const d = await failedDownload('huge.gguf');
    expect(d.error).toMatch(/^The file is 0\.010 GB, more than the download limit of 0\.001 GB/);
    expect(d.bytes).toBe(0);
    expect(leftovers()).toEqual([]);
  });
});
