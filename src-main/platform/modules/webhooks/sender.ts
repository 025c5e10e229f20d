import http from 'node:http';
import https from 'node:https';
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

/** The headers every attempt carries besides the signed ones (the delivery log shows these). */
export const plainHeaders = (messageId: string): Record<string, string> => ({ 'content-type': 'application/json', 'user-agent': USER_AGENT, 'webhook-id': messageId });

// Keep-alive pools of their own: a burst reuses its connections to a receiver.
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** A readable reason for a failed request (the socket error's code and message). */
function reasonOf(err: unknown): string {
  const e = err as { message?: string; code?: string };
  if (e?.message) return e.code && !e.message.includes(e.code) ? `${e.code}: ${e.message}` : e.message;
  return e?.code ?? String(err);
}

/**
 * One signed POST. A 2xx status within the timeout is a success; anything else (another status,
 * a redirect, which is not followed, a timeout, a refused connection, a DNS failure) is a failure
 * with a reason. Never throws. On node:http rather than fetch: a burst of deliveries runs many of
 * these at once on the event loop, and web streams cost about twice the CPU per request.
 */
export function attemptDelivery(req: AttemptRequest): Promise<AttemptResult> {
  const start = performance.now();
  const done = (r: Omit<AttemptResult, 'latencyMs'>): AttemptResult => ({ ...r, latencyMs: Math.round(performance.now() - start) });
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.resolve(done({ ok: false, statusCode: null, error: 'Refused: the webhook URL is not a valid URL', responseBody: null }));
  }
  // Re-checked at send: only http(s), whatever got into the row.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve(done({ ok: false, statusCode: null, error: `Refused: only http and https URLs are delivered to (got ${url.protocol})`, responseBody: null }));
  }
  const body = Buffer.from(req.body);
  const secure = url.protocol === 'https:';
  return new Promise<AttemptResult>((resolve) => {
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    // The status decides; a body cut off by the cap, the timeout or a broken connection only shortens the log entry.
    const answered = () => {
      const ok = statusCode! >= 200 && statusCode! < 300;
      const error = ok ? null : statusCode! >= 300 && statusCode! < 400 ? `Redirect (${statusCode}) not followed` : `HTTP ${statusCode}`;
      // A cut may split a UTF-8 sequence: the decoder replaces the broken tail instead of failing.
      const responseBody = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_CAP));
      finish({ ok, statusCode, error, responseBody });
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        headers: { ...plainHeaders(req.messageId), 'content-length': String(body.length), ...signedHeaders(req.secret, req.messageId, req.body) },
      },
      (res) => {
        statusCode = res.statusCode ?? 0;
        res.on('data', (c: Buffer) => {
          if (size >= RESPONSE_BODY_CAP) return;
          chunks.push(c);
          size += c.length;
          // Enough is kept: the rest is not read (a receiver cannot make us buffer megabytes).
          if (size >= RESPONSE_BODY_CAP) {
            answered();
            res.destroy();
          }
        });
        res.on('end', answered);
        res.on('error', answered);
        res.on('close', answered);
      },
    );
    const timer = setTimeout(() => {
      if (statusCode !== null) answered();
      else finish({ ok: false, statusCode: null, error: `Timed out after ${req.timeoutMs} ms`, responseBody: null });
      request.destroy();
    }, req.timeoutMs);
    request.on('error', (err) => {
      if (statusCode !== null) answered();
      else finish({ ok: false, statusCode: null, error: reasonOf(err), responseBody: null });
    });
    request.end(body);
  });
}
