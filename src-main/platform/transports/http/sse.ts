/**
 * The one Server-Sent Events writer, for every stream the platform answers (/api executions and
 * their re-attach, and the OpenAI and Anthropic doors).
 */

/** Headers that make every hop pass events through at once (no proxy buffering, no transforms). */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
  // Declared up front so @hono/node-server sends the headers at once instead of first probing
  // the body to compute a Content-Length (which costs a timer tick before the first byte).
  'Transfer-Encoding': 'chunked',
} as const;

/** The default framing: one `data: <json>` line and a blank line. */
export const dataFrame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** Framing with an `id:` line first, so a client can resume with `Last-Event-ID`. */
export const idFrame = (f: { id: number | string; data: unknown }) => `id: ${f.id}\ndata: ${JSON.stringify(f.data)}\n\n`;

/** One named event (`event:` and `data:` lines), as the Responses and Anthropic streams write them. */
export const namedFrame = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

export interface SseOptions<T> {
  status?: number;
  /** What one item becomes on the wire (default: a `data: <json>` frame; items that are strings can pass `String`). */
  frame?: (item: T) => string;
  headers?: Record<string, string>;
  /**
   * A failure of the source after the headers went out: the frame that tells the client (the
   * stream then ends normally). Without it the stream is aborted.
   */
  failure?: (err: unknown) => string;
  /** The client went away: stop what feeds the source (the source itself is also ended). */
  onCancel?: () => void;
}

/**
 * A Server-Sent Events response. Pull-based and bounded: one frame is read from `events` only
 * when the client has taken the last (no queue grows behind a slow reader), and a client that
 * goes away only ends this iteration (`return()`), never the work behind it.
 */
export function sseResponse<T>(events: AsyncIterable<T>, opts: SseOptions<T> = {}): Response {
  const enc = new TextEncoder();
  const frame = opts.frame ?? dataFrame;
  const it = events[Symbol.asyncIterator]();
  let ended = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (ended) return;
        try {
          const { done, value } = await it.next();
          // The client left while the source was busy.
          if (ended) return;
          if (done) {
            ended = true;
            controller.close();
          } else controller.enqueue(enc.encode(frame(value)));
        } catch (err) {
          if (ended) return;
          ended = true;
          if (!opts.failure) return controller.error(err);
          controller.enqueue(enc.encode(opts.failure(err)));
          controller.close();
        }
      },
      cancel() {
        ended = true;
        opts.onCancel?.();
        // Not awaited: a source busy in an await ends at its next step, and nothing waits for it.
        void Promise.resolve(it.return?.()).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status: opts.status ?? 200, headers: { ...SSE_HEADERS, ...opts.headers } });
}
