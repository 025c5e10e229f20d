import http from 'node:http';
import https from 'node:https';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError, isAbort } from './types.js';
import { mark } from '../../kernel/first-token-marks.js';
import { DEFAULT_STREAM_LIMITS, type StreamGuard } from './stream-limits.js';

/** Default silence after which a streaming provider is given up on. */
export const DEFAULT_IDLE_TIMEOUT_MS = DEFAULT_STREAM_LIMITS.idleMs;

/** What error mapping needs of a response (fetch's Response and StreamResponse both fit). */
interface Failed {
  status: number;
  statusText: string;
  text(): Promise<string>;
}

/** The provider's own error text from a JSON error body (OpenAI, Anthropic and Ollama shapes). */
async function errorText(res: Failed): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const j = JSON.parse(text);
    const m = j?.error?.message ?? j?.error ?? j?.message;
    if (typeof m === 'string' && m) return m.slice(0, 500);
  } catch {}
  return text.trim().slice(0, 200) || res.statusText || 'no details';
}

/** Maps an HTTP failure to a ProviderError with a code that the UI can act on. */
export async function httpFailure(res: Failed, what: string): Promise<ProviderError> {
  const detail = await errorText(res);
  const code = res.status === 401 || res.status === 403 ? 'provider_auth' : res.status === 429 ? 'provider_rate_limited' : 'provider_error';
  return new ProviderError(`${what} answered ${res.status}: ${detail}`, code, res.status);
}

function unreachable(url: string, what: string, err: unknown): ProviderError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  const code = (err as { code?: string }).code;
  return new ProviderError(`Could not reach ${what} at ${new URL(url).origin} (${cause?.code ?? code ?? cause?.message ?? (err as Error).message}).`, 'provider_unreachable');
}

/**
 * fetch with the caller's signal and a clear error for unreachable hosts, for the small
 * non-streaming calls (model lists, images). Returns the response (any status).
 */
export async function request(url: string, init: RequestInit & { signal: AbortSignal }, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (isAbort(err) || init.signal.aborted) throw err;
    throw unreachable(url, what, err);
  }
}

export interface StreamResponse extends Failed {
  ok: boolean;
  body: AsyncIterable<Uint8Array>;
  /** Drops the connection (early end, idle timeout). */
  close(): void;
}

const MAX_ERROR_BODY_BYTES = 64 * 1024;

// Keep-alive pools: a streaming call reuses its connection like fetch does.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) };

/**
 * A streaming POST on node:http rather than fetch: it costs about half the CPU per request
 * (no web streams in between), which is most of Agent Desk's own first-token overhead.
 */
export function streamRequest(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal; idleMs?: number },
  what: string,
): Promise<StreamResponse> {
  const u = new URL(url);
  const mod = u.protocol === 'https:' ? https : http;
  const body = Buffer.from(init.body);
  const attempt = (retried: boolean): Promise<StreamResponse> =>
    new Promise((resolve, reject) => {
      const req = mod.request(
        u,
        { method: 'POST', agent: retried ? false : u.protocol === 'https:' ? agents.https : agents.http, headers: { ...init.headers, 'content-length': String(body.length) }, signal: init.signal },
        (res) => {
          mark('provider answered');
          clearTimeout(waiting);
          const status = res.statusCode ?? 0;
          // Errors surface through the reader; this keeps one between reads from going unhandled.
          res.on('error', () => {});
          resolve({
            status,
            ok: status >= 200 && status < 300,
            statusText: res.statusMessage ?? '',
            body: res,
            close: () => res.destroy(),
            // An error body is read for its message only: a provider that sends an endless one is cut off.
            async text() {
              const chunks: Buffer[] = [];
              let size = 0;
              for await (const c of res) {
                chunks.push(c as Buffer);
                size += (c as Buffer).length;
                if (size >= MAX_ERROR_BODY_BYTES) {
                  res.destroy();
                  break;
                }
              }
              return Buffer.concat(chunks).toString('utf8');
            },
          });
        },
      );
      // No answer at all (a host that drops packets, a server that never responds) counts as silence too.
      const idleMs = init.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS;
      const waiting = setTimeout(() => req.destroy(new ProviderError(`${what} did not answer within ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}; gave up.`, 'provider_timeout')), idleMs);
      req.on('error', (err) => {
        clearTimeout(waiting);
        if (err instanceof ProviderError || isAbort(err) || init.signal.aborted) reject(err);
        // A kept-alive connection the server closed while it sat idle fails on reuse before any
        // answer (more often when this process is busy and notices the close late): the request
        // never reached the model, so it is sent once more, on a connection of its own: the pool's
        // other idle connections may have been closed the same way.
        else if (!retried && req.reusedSocket && isConnectionDrop(err)) attempt(true).then(resolve, reject);
        else reject(unreachable(url, what, err));
      });
      req.end(body);
      mark('provider request sent');
    });
  return attempt(false);
}

const isConnectionDrop = (err: unknown) => ['ECONNRESET', 'EPIPE'].includes((err as { code?: string }).code ?? '');

/** One stream event's JSON; a provider that sends something else has failed, said in the provider's name. */
export function streamEvent<T>(data: string, label: string): T {
  try {
    return JSON.parse(data) as T;
  } catch {
    throw new ProviderError(`${label} sent a malformed stream event.`, 'provider_error');
  }
}

/**
 * Reads an SSE body and yields the events of each network chunk together, so a consumer can
 * coalesce the text of one read into one delta. The guard's limits hold it: its signal ending
 * (deadline, idle, cap, cancel) closes the connection; a chunk counts only as activity (the
 * provider counts text and tool bytes as progress), so comments and pings never keep it alive;
 * one event, or a line that never ends, is capped.
 */
export async function* sseBatches(res: StreamResponse, guard: StreamGuard): AsyncGenerator<EventSourceMessage[]> {
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  let tooLarge = false;
  const parser = createParser({
    onEvent: (e) => pending.push(e),
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') tooLarge = true;
    },
    maxBufferSize: guard.limits.maxEventBytes,
  });
  guard.answer();
  const signal = guard.signal;
  const onEnd = () => res.close();
  signal.addEventListener('abort', onEnd, { once: true });
  if (signal.aborted) res.close();
  const iterator = res.body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let chunk: IteratorResult<Uint8Array>;
      try {
        chunk = await iterator.next();
      } catch (err) {
        guard.check();
        if (signal.aborted || isAbort(err)) throw err;
        throw new ProviderError(`The connection to ${guard.what} broke off mid-answer (${(err as Error).message}).`, 'provider_error');
      }
      guard.check();
      if (chunk.done) break;
      mark('provider chunk');
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (tooLarge) throw guard.eventTooLarge();
      // Only what the provider reads as text or tool bytes is progress; a chunk by itself is not.
      guard.activity();
      if (pending.length) {
        const batch = pending;
        pending = [];
        yield batch;
      }
    }
    if (signal.aborted) throw signal.reason ?? new DOMException('aborted', 'AbortError');
    parser.feed('\n\n');
    if (pending.length) yield pending;
  } finally {
    signal.removeEventListener('abort', onEnd);
    // An early return (consumer stopped, cancel) must close the upstream connection.
    res.close();
  }
}
