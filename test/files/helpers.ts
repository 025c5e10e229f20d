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
  // Sent as the bytes a client puts on the wire: Node 24's Request streams a FormData body from a
  // pump that rejects, unhandled, when the receiver stops reading early (as it does at the limit).
  const encoded = new Response(form);
  const res = await p.app.request(`${BASE}${opts.url ?? '/api/files'}`, {
    method: 'POST',
    headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, 'content-type': encoded.headers.get('content-type')!, ...opts.headers },
    body: new Uint8Array(await encoded.arrayBuffer()),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text };
}

/**
 * Waits until no file of the workspace reads `waiting` or `in_progress`: extracted, and its
 * passages' vectors written (or their embedding failed) — what `completed` means.
 */
export async function filesSettled(p: Platform): Promise<void> {
  const { until } = await import('../fixtures/until.js');
  await until('every file settled, vectors included', async () => {
    const res = await p.app.request(`${BASE}/api/files?per_page=100`, { headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}` } });
    const files = ((await res.json()) as { data: { status: string }[] }).data;
    return files.every((f) => f.status !== 'waiting' && f.status !== 'in_progress');
  });
}
