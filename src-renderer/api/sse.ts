import { ExecutionEvent } from '../../src-main/platform/contract/executions';
import { createParser } from 'eventsource-parser';
import { errorFrom } from './errors';
import type { RequestInit, StreamHandlers } from './transport';
import { t as tr } from '../i18n';

// The one SSE parser: eventsource-parser, as in the platform (providers, remote agents) and the tests.

/** What reading an execution's event stream needs of a transport (client.ts passes its own). */
interface StreamingTransport {
  stream(req: RequestInit, h: StreamHandlers): Promise<{ status: number; text?: string }>;
}

/**
 * Reads an execution's event stream (execute with `stream: true`, or the ext re-attach stream):
 * `onEvent` sees each event parsed with the contract, with its `id:` when the stream sends one.
 * Resolves with the last event; a `failed` one is returned, not thrown. A non-2xx answer throws.
 */
export async function readExecutionEvents(t: StreamingTransport, req: RequestInit, onEvent: (e: ExecutionEvent, id?: string) => void, signal?: AbortSignal): Promise<ExecutionEvent | null> {
  let last: ExecutionEvent | null = null;
  let bad: Error | null = null;
  const parser = createParser({
    onEvent: (ev) => {
      if (bad) return;
      try {
        const parsed = ExecutionEvent.safeParse(JSON.parse(ev.data));
        if (!parsed.success) throw new Error(tr('errors.streamShape'));
        last = parsed.data;
        onEvent(parsed.data, ev.id);
      } catch (err) {
        bad = err as Error;
      }
    },
  });
  const res = await t.stream(req, { onChunk: (c) => parser.feed(c), signal });
  parser.feed('\n\n');
  if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text ?? '');
  if (bad) throw bad;
  return last;
}
