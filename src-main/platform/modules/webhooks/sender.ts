import { signedHeaders } from './signing.js';

export const USER_AGENT = 'AgentDesk-Webhooks/1.0';
/** How much of a receiver's answer is kept in the delivery log. */
export const RESPONSE_BODY_CAP = 4096;

export interface AttemptRequest {
  url: string;
  secret: string;
  messageId: string;
  body: string;
  timeoutMs: number;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
}

/** Reads at most `cap` bytes of a body, then lets the rest go (a receiver cannot make us buffer megabytes). */
async function readCapped(res: Response, cap: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < cap) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, cap);
  // A cut may split a UTF-8 sequence: the decoder replaces the broken tail instead of failing.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** A readable reason for a failed fetch: undici hides the socket error in `cause`. */
function reasonOf(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause;
  if (cause?.message) return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  if (cause?.code) return cause.code;
  return e?.message ?? String(err);
}

/**
 * One signed POST. A 2xx status within the timeout is a success; anything else (another status,
 * a redirect, which is not followed, a timeout, a refused connection, a DNS failure) is a failure
 * with a reason. Never throws.
 */
export async function attemptDelivery(req: AttemptRequest): Promise<AttemptResult> {
  const start = performance.now();
  const done = (r: Omit<AttemptResult, 'latencyMs'>): AttemptResult => ({ ...r, latencyMs: Math.round(performance.now() - start) });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return done({ ok: false, statusCode: null, error: 'Refused: the webhook URL is not a valid URL', responseBody: null });
  }
  // Re-checked at send: only http(s), whatever got into the row.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return done({ ok: false, statusCode: null, error: `Refused: only http and https URLs are delivered to (got ${url.protocol})`, responseBody: null });
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, req.timeoutMs);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...signedHeaders(req.secret, req.messageId, req.body) },
      body: req.body,
      redirect: 'manual',
      signal: controller.signal,
    });
    const statusCode = res.status;
    let responseBody: string | null = null;
    try {
      responseBody = await readCapped(res, RESPONSE_BODY_CAP);
    } catch {
      // The status decides; a body cut off by the timeout only shortens the log entry.
    }
    const ok = statusCode >= 200 && statusCode < 300;
    const error = ok ? null : statusCode >= 300 && statusCode < 400 ? `Redirect (${statusCode}) not followed` : `HTTP ${statusCode}`;
    return done({ ok, statusCode, error, responseBody });
  } catch (err) {
    const error = timedOut ? `Timed out after ${req.timeoutMs} ms` : reasonOf(err);
    return done({ ok: false, statusCode: null, error, responseBody: null });
  } finally {
    clearTimeout(timer);
  }
}
