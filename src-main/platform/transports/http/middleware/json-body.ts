import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { PayloadTooLargeError, PlatformError } from '../../../kernel/errors.js';
import { requestHeader } from '../request-header.js';
import { checkJsonDepth } from './json-depth.js';

async function readLimited(req: Request, max: number): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > max) throw new PayloadTooLargeError(`The request body is too large (limit ${Math.round(max / 1024)} KB).`);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(`The request body is too large (limit ${Math.round(max / 1024)} KB).`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * JSON bodies: limited in size (413), and accepted whatever the Content-Type says as long as
 * they are JSON, because `curl -d '{...}'` labels JSON as a form. A form body is read as a form.
 * Multipart (uploads) passes through untouched for its own streaming parser. Arrays and objects
 * nested deeper than MAX_JSON_DEPTH are a 422 for every route.
 */
export function jsonBody(maxBytes: () => number): (c: Context<AppEnv>) => Promise<void> | undefined {
  return (c) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return;
    const type = (requestHeader(c, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type.startsWith('multipart/')) return;
    return relabel(c, type, maxBytes());
  };
}

/** Reads the body, checks it and puts it back as JSON (see jsonBody). */
async function relabel(c: Context<AppEnv>, type: string, max: number): Promise<void> {
  const method = c.req.method;
  const text = await readLimited(c.req.raw, max);
  let json = text;
  if (!/^application\/([\w.-]+\+)?json$/.test(type) && text.trim() !== '') {
    const looksJson = /^\s*[[{]/.test(text);
    if (!looksJson && type === 'application/x-www-form-urlencoded') {
      json = JSON.stringify(Object.fromEntries(new URLSearchParams(text)));
    } else if (!looksJson) {
      throw new PlatformError(400, 'Malformed JSON in request body.', 'malformed_json');
    }
  }
  // One depth limit for every route: whatever is stored from input can be serialized again.
  checkJsonDepth(json);
  const headers = new Headers(c.req.raw.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  c.req.raw = new Request(c.req.raw.url, { method, headers, body: json.trim() === '' ? '{}' : json, signal: c.req.raw.signal });
}
