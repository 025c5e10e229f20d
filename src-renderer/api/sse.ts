import { ExecutionEvent } from '../../src-main/platform/contract/executions';
import { errorFrom } from './errors';
import type { RequestInit, StreamHandlers } from './transport';

/** One Server-Sent Event, as the HTML spec's parsing rules assemble it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental SSE parser: feed it text chunks cut anywhere (mid-line, mid-CRLF); it calls
 * `onEvent` for each complete event. Handles LF, CRLF and CR line ends, comments, multi-line
 * `data`, and a BOM at the start.
 */
export function createSseParser(onEvent: (e: SseEvent) => void) {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let first = true;
  let pendingCr = false;

  const dispatch = () => {
    if (data.length) onEvent({ event: event || 'message', data: data.join('\n'), id });
    data = [];
    event = '';
  };

  const line = (l: string) => {
    if (l === '') return dispatch();
    if (l.startsWith(':')) return;
    const colon = l.indexOf(':');
    const field = colon < 0 ? l : l.slice(0, colon);
    let value = colon < 0 ? '' : l.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return {
    feed(chunk: string) {
      if (first && chunk.length) {
        if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
        first = false;
      }
      // A CR that ended the last chunk may be the first half of a CRLF.
      if (pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
      pendingCr = false;
      buffer += chunk;
      let start = 0;
      for (let i = 0; i < buffer.length; i++) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i++;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    /** End of stream: an unterminated event is dropped, as the spec says. */
    end() {
      buffer = '';
      data = [];
    },
  };
}

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
  const parser = createSseParser((ev) => {
    if (bad) return;
    try {
      const parsed = ExecutionEvent.safeParse(JSON.parse(ev.data));
      if (!parsed.success) throw new Error('An event of the stream has an unexpected shape.');
      last = parsed.data;
      onEvent(parsed.data, ev.id);
    } catch (err) {
      bad = err as Error;
    }
  });
  const res = await t.stream(req, { onChunk: (c) => parser.feed(c), signal });
  parser.feed('\n\n');
  if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text ?? '');
  if (bad) throw bad;
  return last;
}
