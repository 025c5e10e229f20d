/**
 * The one Server-Sent Events parser, for the renderer and the tests: the HTML spec's parsing
 * rules (LF, CRLF and CR line ends, comments, multi-line `data`, a BOM at the start, `id` kept
 * from event to event, an unterminated event dropped at the end). With `framing`, it also holds a
 * stream to the platform's own framing (CONTRACT.md "Execution", Stream): each event one
 * `data: <json>` line (after one `id:` line on a re-attach stream), then a blank line; anything
 * else throws.
 */

/** One Server-Sent Event, as the HTML spec's parsing rules assemble it. */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** `data`: the execute stream's events; `id-data`: the re-attach stream's (an `id:` line first). */
export type SseFraming = 'data' | 'id-data';

export interface SseParser {
  /** Text cut anywhere (mid-line, mid-CRLF); `onEvent` is called for each event it completes. */
  feed(chunk: string): void;
  /** End of stream: an unterminated event is dropped (with `framing`: throws). */
  end(): void;
}

export function createSseParser(onEvent: (e: SseEvent) => void, opts: { framing?: SseFraming } = {}): SseParser {
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  let first = true;
  let pendingCr = false;
  // The framing check: the raw lines of the event being read, and how many events went by.
  const framing = opts.framing;
  let raw: string[] = [];
  let count = 0;

  const refuse = (what: string) => {
    throw new Error(`Bad SSE framing (event ${count + 1}): ${what}: ${JSON.stringify(raw.join('\n').slice(0, 80))}`);
  };

  const checkFraming = () => {
    const want = framing === 'id-data' ? ['id: ', 'data: '] : ['data: '];
    if (!raw.length) refuse('a blank line with no event before it');
    if (raw.length !== want.length || raw.some((l, i) => !l.startsWith(want[i]))) refuse(`not ${want.map((w) => `one \`${w.trim()}\` line`).join(' then ')}`);
    raw = [];
    count++;
  };

  const dispatch = () => {
    if (framing) checkFraming();
    if (data.length) onEvent({ event: event || 'message', data: data.join('\n'), id });
    data = [];
    event = '';
  };

  const line = (l: string) => {
    if (l === '') return dispatch();
    if (framing) raw.push(l);
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
    end() {
      if (framing && (buffer || raw.length)) {
        if (buffer) raw.push(buffer);
        refuse('the stream ends inside an event (no blank line after it)');
      }
      buffer = '';
      data = [];
      raw = [];
    },
  };
}

/** A whole SSE body's events (its last one must end with a blank line to count). */
export function parseSse(text: string, opts: { framing?: SseFraming } = {}): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((e) => events.push(e), opts);
  parser.feed(text);
  parser.end();
  return events;
}
