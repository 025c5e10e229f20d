import { BASE, KEY } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';

/** Uploads bytes as multipart through app.request (the same path the desktop bridge takes). */
export async function upload(
  p: Platform,
  filename: string,
  bytes: Uint8Array | string,
  opts: { process?: boolean | string; headers?: Record<string, string>; url?: string; field?: string } = {},
) {
  const form = new FormData();
  form.append(opts.field ?? 'file', new Blob([Buffer.from(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes)]), filename);
  if (opts.process !== undefined) form.append('process', String(opts.process));
  const res = await p.app.request(`${BASE}${opts.url ?? '/api/files'}`, {
    method: 'POST',
    headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, ...opts.headers },
    body: form,
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text };
}
