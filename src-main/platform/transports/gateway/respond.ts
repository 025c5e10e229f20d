import { isFinished, type ExecutionEvent } from '../../contract/executions.js';
import type { GatewayRun } from './gateway.js';
import { mark } from '../../kernel/first-token-marks.js';

export const HOLD_HEADERS_MS = 1000;

export type Next = IteratorResult<ExecutionEvent>;


/**
 * Holds a stream's headers until there is text, an end, or `ms` has passed: long enough that a
 * request failing at once (no model configured, provider down) is answered as a real HTTP error,
 * short enough that a slow-loading local model still shows the client a live stream. Returns the
 * events read meanwhile and the read still pending; throws the failure when the run failed first.
 */
export async function holdHeaders(run: GatewayRun, ms: number, fail: (e: ExecutionEvent) => Error): Promise<{ held: Next[]; pending: Promise<Next> | null }> {
  const held: Next[] = [];
  let pending: Promise<Next> | null = null;
  const deadline = Date.now() + ms;
  for (;;) {
    pending ??= run.events.next();
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([pending, new Promise<null>((res) => (timer = setTimeout(() => res(null), Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
    if (r === null) break;
    pending = null;
    held.push(r);
    if (r.done || isFinished(r.value.status) || r.value.output) break;
  }
  mark('headers held');
  const first = held[held.length - 1];
  if (first && !first.done && isFinished(first.value.status) && first.value.status !== 'completed') throw fail(first.value);
  return { held, pending };
}

/** The next event: held ones first, then the pending read, then new reads. */
export function reader(run: GatewayRun, held: Next[], pending: Promise<Next> | null): () => Promise<Next> {
  return async () => {
    if (held.length) return held.shift()!;
    if (pending) {
      const p = pending;
      pending = null;
      return p;
    }
    return run.events.next();
  };
}

/** The whole answer of a run, for `stream: false`: its text and its final event. */
export async function collect(run: GatewayRun): Promise<{ output: string; last: ExecutionEvent | undefined }> {
  let output = '';
  for (;;) {
    const { value, done } = await run.events.next();
    if (done) return { output, last: undefined };
    if (isFinished(value.status)) return { output, last: value };
    output += value.output;
  }
}
