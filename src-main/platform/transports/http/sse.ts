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
const dataFrame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

/** Framing with an `id:` line first, so a client can resume with `Last-Event-ID`. */
export const idFrame = (f: { id: number | string; data: unknown }) => `id: ${f.id}\ndata: ${JSON.stringify(f.data)}\n\n`;

/**
 * A Server-Sent Events response: each item becomes one `data: <json>` line and a blank line
 * (or what `frame` makes of it).
 * Pull-based: nothing is read from `events` faster than the client takes it, and a client that
 * goes away only ends this iteration (`return()`), never the work behind it.
 */
export function sseResponse<T>(events: AsyncIterable<T>, status = 200, frame: (item: T) => string = dataFrame): Response {
  const enc = new TextEncoder();
  const it = events[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await it.next();
          if (done) controller.close();
          else controller.enqueue(enc.encode(frame(value)));
        } catch (err) {
          controller.error(err);
        }
      },
      async cancel() {
        await it.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(stream, { status, headers: SSE_HEADERS });
}
