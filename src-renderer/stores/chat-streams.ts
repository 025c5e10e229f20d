import { api, ApiError, isAbort, type ExecutionEvent, ops } from '../api';
import { isFinished } from '../../src-main/platform/contract/executions';
import { backoffDelay } from '../../src-main/platform/kernel/backoff';

/**
 * The answers the open conversation is reading, by turn key. Opening another conversation (or a
 * new chat) drops these readers, never the answers: they run on in the platform, and the
 * conversation re-attaches to them when it is opened again.
 */
const readers = new Map<string, AbortController>();

export function track(key: string): AbortSignal {
  readers.get(key)?.abort();
  const c = new AbortController();
  readers.set(key, c);
  return c.signal;
}

export function untrack(key: string, signal: AbortSignal): void {
  if (readers.get(key)?.signal === signal) readers.delete(key);
}

/** Stops reading one answer here (its execution goes on). */
export function drop(key: string): void {
  readers.get(key)?.abort();
  readers.delete(key);
}

export function dropAll(): void {
  for (const c of readers.values()) c.abort();
  readers.clear();
}

export function isTerminal(e: ExecutionEvent | null): boolean {
  return !!e && isFinished(e.status);
}

/** Pauses between attempts to re-attach a stream that broke (the platform restarting, say). */
export const RETRY_MS = [300, 1000, 2000, 4000, 8000];

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * Follows an execution to its last event over the re-attach stream. `held`: the characters of its
 * text already shown (null: none, and the first event brings the whole text so far, which
 * replaces what is shown: `onEvent`'s `replace`). A stream that ends before the last event is
 * re-attached after the characters held, a few times. Resolves with the last event, or null when
 * no stream reached it; an answer the platform refuses (404, 401) throws.
 */
export async function follow(id: number, held: number | null, onEvent: (e: ExecutionEvent, replace: boolean) => void, signal: AbortSignal): Promise<ExecutionEvent | null> {
  let have = held;
  for (let attempt = 0; ; attempt++) {
    let replace = have === null;
    try {
      const last = await api.stream(
        ops.streamAgentResponse,
        { params: { id }, headers: have === null ? undefined : { 'last-event-id': String(have) } },
        (e, eventId) => {
          onEvent(e, replace);
          replace = false;
          if (eventId !== undefined && /^\d+$/.test(eventId)) have = Number(eventId);
        },
        signal,
      );
      if (isTerminal(last)) return last;
    } catch (err) {
      if (isAbort(err) || signal.aborted) throw err;
      if (err instanceof ApiError && err.status > 0 && err.status < 500) throw err;
    }
    if (attempt >= RETRY_MS.length) return null;
    await pause(backoffDelay({ waits: RETRY_MS }, attempt), signal);
    if (signal.aborted) throw new DOMException('Stopped reading.', 'AbortError');
  }
}
