import type { Logger } from '../../kernel/log.js';
import type { GatewayRun } from './gateway.js';
import { EXECUTION_HEADER } from './shapes.js';

/** One named SSE event (`event:` and `data:` lines), as the Responses and Anthropic streams write them. */
export const sseEvent = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A streamed answer: `write` sends frames until the run's end (`gone()` says the reader left). A failure of our own after the
 * headers went out is logged and ends the stream with `failFrame()`. A client that goes away stops
 * only its stream, never the execution.
 */
export function sseResponse(run: GatewayRun, log: Logger, write: (send: (frame: string) => void, gone: () => boolean) => Promise<void>, failFrame: () => string): Response {
  const enc = new TextEncoder();
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (s: string) => {
        if (closed) return;
        try {
          controller.enqueue(enc.encode(s));
        } catch {
          closed = true; // the reader is gone; the execution goes on without it
        }
      };
      try {
        await write(send, () => closed);
      } catch (err) {
        log.error({ err, execution: run.executionId }, 'a /v1 stream failed');
        send(failFrame());
      }
      if (!closed) {
        closed = true;
        try {
          controller.close();
        } catch {}
      }
    },
    cancel() {
      closed = true;
      void run.events.return?.();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no', [EXECUTION_HEADER]: String(run.executionId) },
  });
}
