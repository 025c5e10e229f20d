import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPlatform, type Platform, type PlatformOptions } from '../../src-main/platform/platform.js';

export const KEY = 'test-key-0123456789';
export const BASE = 'http://127.0.0.1:8787';

export function tempDir(prefix = 'agent-desk-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A fresh platform on its own data dir, driven in-process through app.request. */
export function makePlatform(opts: PlatformOptions = {}): Platform & { dir: string } {
  const dir = opts.dataDir ?? tempDir();
  const p = createPlatform({ envApiKey: KEY, ...opts, dataDir: dir });
  return Object.assign(p, { dir });
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  key?: string | null;
  raw?: string;
}

/** One request to the app, as a client on loopback would send it. */
export async function call(p: Platform, method: string, url: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { host: '127.0.0.1:8787', ...opts.headers };
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await p.app.request(`${BASE}${url}`, { method, headers, body });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, headers: res.headers, json, text };
}

/** Closes a platform made by makePlatform and removes its data dir. */
export async function closePlatform(p: Platform & { dir: string }): Promise<void> {
  await p.close();
  fs.rmSync(p.dir, { recursive: true, force: true });
}
