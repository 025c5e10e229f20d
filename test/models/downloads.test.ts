import fs from 'node:fs';
import { limit } from '../fixtures/until.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform, tempDir } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { startHub, type Hub } from './hub.js';

const ENV = { AGENT_DESK_OLLAMA_AUTODETECT: '0' };

async function until(p: Platform, id: number, ok: (d: any) => boolean, what: string): Promise<any> {
  const t0 = Date.now();
  for (;;) {
    const r = await call(p, 'GET', `/api/models/downloads/${id}`);
    if (ok(r.json)) return r.json;
    // A bound on a condition, not a timing assertion: generous under a loaded CPU.
    if (Date.now() - t0 > limit(30_000)) throw new Error(`waiting for ${what}; last: ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe('model downloads (a stand-in hub on loopback with Range requests)', () => {
  let hub: Hub;
  beforeAll(async () => {
    hub = await startHub();
  });
  afterAll(async () => {
    await hub.close();
  });

  it('downloads with progress, checks size and SHA-256, and the model is then listed and routed offline', async () => {
    const p = makePlatform({ env: ENV });
    try {
      hub.stallAfter(1000);
      const made = await call(p, 'POST', '/api/models/downloads', { body: { url: hub.url, sha256: hub.sha256 } });
      expect(made.status).toBe(201);
      expect(made.json).toMatchObject({ url: hub.url, file: hub.name, status: expect.stringMatching(/queued|downloading/), error: null });
      // Progress is visible while bytes arrive.
      const mid = await until(p, made.json.id, (d) => d.bytes >= 1000, 'progress');
      expect(mid).toMatchObject({ status: 'downloading', bytes: 1000, total: hub.bytes.length });
      expect((await call(p, 'GET', '/api/models/downloads')).json.map((d: any) => d.id)).toContain(made.json.id);
      // No half file is ever offered as a model.
      expect(fs.readdirSync(path.join(p.dir, 'models')).filter((f) => f.endsWith('.gguf'))).toEqual([]);
      hub.stallAfter(null);
      hub.release(); // the connection drops: the download fails and resumes from byte 1000 when asked
      const dropped = await until(p, made.json.id, (d) => d.status === 'failed', 'the dropped connection');
      expect(dropped.error).toMatch(/ended early|terminated|socket|other side closed/i);
      expect((await call(p, 'POST', `/api/models/downloads/${made.json.id}/resume`)).status).toBe(200);
      const done = await until(p, made.json.id, (d) => d.status === 'completed', 'completion');
      expect(done).toMatchObject({ bytes: hub.bytes.length, total: hub.bytes.length, error: null });
      expect(hub.requests.at(-1)!.range).toBe('bytes=1000-');
      const file = path.join(p.dir, 'models', hub.name);
      expect(fs.readFileSync(file).equals(hub.bytes)).toBe(true);

      // Usable offline: the hub is not needed to list or route it.
      await hub.close();
      const models = await call(p, 'GET', '/api/models?fresh=1');
      expect(models.json).toContainEqual(expect.objectContaining({ id: hub.name, provider: 'local', source: 'file' }));
      expect(p.services.providers.resolve(hub.name).id).toBe('local');
      hub = await startHub();
    } finally {
      await closePlatform(p);
    }
  });

  it('pauses (the partial file stays) and resumes with a Range request', async () => {
    const p = makePlatform({ env: ENV });
    try {
      const half = Math.floor(hub.bytes.length / 2);
      hub.stallAfter(half);
      const made = await call(p, 'POST', '/api/models/downloads', { body: { url: hub.url } });
      await until(p, made.json.id, (d) => d.bytes >= half, 'half the file');
      const paused = await call(p, 'POST', `/api/models/downloads/${made.json.id}/pause`);
      expect(paused.json).toMatchObject({ status: 'paused', bytes: half });
      expect(fs.statSync(path.join(p.dir, 'models', `.${hub.name}.part`)).size).toBe(half);
      hub.release();
      hub.stallAfter(null);
      const before = hub.requests.length;
      await call(p, 'POST', `/api/models/downloads/${made.json.id}/resume`);
      const done = await until(p, made.json.id, (d) => d.status === 'completed', 'completion');
      expect(done.bytes).toBe(hub.bytes.length);
      expect(hub.requests.slice(before).map((r) => r.range)).toEqual([`bytes=${half}-`]);
      // Without a given checksum the hub's own (x-linked-etag) was checked: the bytes are the hub's.
      expect(fs.readFileSync(path.join(p.dir, 'models', hub.name)).equals(hub.bytes)).toBe(true);
    } finally {
      await closePlatform(p);
    }
  });

  it('resumes after a restart from where the partial file ends', async () => {
    const dir = tempDir();
    const half = Math.floor(hub.bytes.length / 3);
    hub.stallAfter(half);
    const p1 = makePlatform({ env: ENV, dataDir: dir });
    const made = await call(p1, 'POST', '/api/models/downloads', { body: { url: hub.url, sha256: hub.sha256 } });
    await until(p1, made.json.id, (d) => d.bytes >= half, 'a third of the file');
    await p1.close(); // the app quits mid-download
    hub.release();
    hub.stallAfter(null);
    const before = hub.requests.length;
    const p2 = makePlatform({ env: ENV, dataDir: dir });
    try {
      const done = await until(p2, made.json.id, (d) => d.status === 'completed', 'completion after restart');
      expect(done.bytes).toBe(hub.bytes.length);
      expect(hub.requests.slice(before).map((r) => r.range)).toEqual([`bytes=${half}-`]);
      expect(fs.readFileSync(path.join(dir, 'models', hub.name)).equals(hub.bytes)).toBe(true);
    } finally {
      await closePlatform(p2);
    }
  });

  it('fails on a checksum mismatch and keeps no file', async () => {
    const p = makePlatform({ env: ENV });
    try {
      const made = await call(p, 'POST', '/api/models/downloads', { body: { url: hub.url, sha256: 'a'.repeat(64) } });
      const failed = await until(p, made.json.id, (d) => d.status === 'failed', 'failure');
      expect(failed.error).toContain(`Checksum mismatch: expected SHA-256 ${'a'.repeat(64)}, got ${hub.sha256}`);
      expect(fs.readdirSync(path.join(p.dir, 'models'))).toEqual([]);
      expect((await call(p, 'GET', '/api/models')).json.some((m: any) => m.source === 'file')).toBe(false);
      // Deleting it removes the row.
      expect((await call(p, 'DELETE', `/api/models/downloads/${made.json.id}`)).status).toBe(200);
      expect((await call(p, 'GET', `/api/models/downloads/${made.json.id}`)).status).toBe(404);
    } finally {
      await closePlatform(p);
    }
  });

  it('follows a hub redirect and checks the checksum the redirect carried', async () => {
    const p = makePlatform({ env: ENV });
    try {
      const ok = await call(p, 'POST', '/api/models/downloads', { body: { url: hub.redirectUrl } });
      expect((await until(p, ok.json.id, (d) => d.status === 'completed' || d.status === 'failed', 'the redirected download')).status).toBe('completed');
      expect(fs.readFileSync(path.join(p.dir, 'models', hub.name)).equals(hub.bytes)).toBe(true);
      await call(p, 'DELETE', `/api/models/downloads/${ok.json.id}`);
      expect(fs.existsSync(path.join(p.dir, 'models', hub.name))).toBe(false); // a completed download's file goes with it

      // The CDN sends no checksum: a wrong one on the redirect is still caught.
      hub.redirectChecksum('b'.repeat(64));
      const bad = await call(p, 'POST', '/api/models/downloads', { body: { url: hub.redirectUrl } });
      const failed = await until(p, bad.json.id, (d) => d.status === 'failed', 'the checksum failure');
      expect(failed.error).toContain(`expected SHA-256 ${'b'.repeat(64)}`);
    } finally {
      hub.redirectChecksum(null);
      await closePlatform(p);
    }
  });

  it('refuses bad requests with the contract envelope', async () => {
    const p = makePlatform({ env: ENV });
    try {
      const bad = async (body: unknown) => call(p, 'POST', '/api/models/downloads', { body });
      expect((await bad({})).status).toBe(422);
      expect((await bad({ url: 'https://huggingface.co/org/repo/resolve/main/README.md' })).json).toMatchObject({ message: 'The url field must name a .gguf file.' });
      expect((await bad({ url: 'http://example.com/x.gguf' })).json.errors.url[0]).toMatch(/https/);
      expect((await bad({ url: 'not a url' })).status).toBe(422);
      expect((await bad({ url: hub.url, sha256: 'xyz' })).json.errors.sha256[0]).toMatch(/64 hexadecimal/);
      expect((await call(p, 'GET', '/api/models/downloads/999')).json).toEqual({ message: 'Download not found' });
      expect((await call(p, 'POST', '/api/models/downloads/abc/pause')).status).toBe(404);
      hub.stallAfter(10);
      const first = await bad({ url: hub.url });
      expect(first.status).toBe(201);
      expect((await bad({ url: hub.url })).status).toBe(409);
      await call(p, 'DELETE', `/api/models/downloads/${first.json.id}`);
      expect(fs.existsSync(path.join(p.dir, 'models', `.${hub.name}.part`))).toBe(false);
      hub.release();
      hub.stallAfter(null);
    } finally {
      await closePlatform(p);
    }
  });
});
