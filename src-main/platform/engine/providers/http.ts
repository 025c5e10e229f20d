import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProviderError, isAbort } from './types.js';

/** Default silence after which a streaming provider is given up on. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** The provider's own error text from a JSON error body (OpenAI, Anthropic and Ollama shapes). */
async function errorText(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const j = JSON.parse(text);
    const m = j?.error?.message ?? j?.error ?? j?.message;
    if (typeof m === 'string' && m) return m.slice(0, 500);
  } catch {}
  return text.trim().slice(0, 200) || res.statusText || 'no details';
}

/** Maps an HTTP failure to a ProviderError with a code that the UI can act on. */
export async function httpFailure(res: Response, what: string): Promise<ProviderError> {
  const detail = await errorText(res);
  const code = res.status === 401 || res.status === 403 ? 'provider_auth' : res.status === 429 ? 'provider_rate_limited' : 'provider_error';
  return new ProviderError(`${what} answered ${res.status}: ${detail}`, code, res.status);
}

/**
 * fetch with the caller's signal, an overall connect timeout, and a clear error for unreachable
 * hosts. Returns the response (any status).
 */
export async function request(url: string, init: RequestInit & { signal: AbortSignal }, what: string): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (isAbort(err) || init.signal.aborted) throw err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new ProviderError(`Could not reach ${what} at ${new URL(url).origin} (${cause?.code ?? cause?.message ?? (err as Error).message}).`, 'provider_unreachable');
  }
}

/**
 * Reads an SSE body and yields the events of each network chunk together, so a consumer can
 * coalesce the text of one read into one delta. Silence longer than `idleMs` fails the stream.
 */
export async function* sseBatches(res: Response, signal: AbortSignal, idleMs: number, what: string): AsyncGenerator<EventSourceMessage[]> {
  if (!res.body) throw new ProviderError(`${what} sent no body.`, 'provider_error');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (e) => pending.push(e) });
  let idle: NodeJS.Timeout | undefined;
  let timedOut = false;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      timedOut = true;
      void reader.cancel().catch(() => {});
    }, idleMs);
  };
  try {
    for (;;) {
      arm();
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal.aborted || isAbort(err)) throw err;
        throw new ProviderError(`The connection to ${what} broke off mid-answer (${(err as Error).message}).`, 'provider_error');
      }
      if (timedOut) throw new ProviderError(`${what} sent nothing for ${idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`}; gave up.`, 'provider_timeout');
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (pending.length) {
        const batch = pending;
        pending = [];
        yield batch;
      }
    }
    parser.feed('\n\n');
    if (pending.length) yield pending;
  } finally {
    clearTimeout(idle);
    // An early return (consumer stopped, cancel) must close the upstream connection.
    void reader.cancel().catch(() => {});
  }
}
