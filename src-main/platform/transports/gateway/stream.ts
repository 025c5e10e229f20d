import type { Socket } from 'node:net';
import type { Logger } from '../../kernel/log.js';
import { mark } from '../../kernel/first-token-marks.js';
import { sseResponse } from '../http/sse.js';
import type { GatewayRun } from './gateway.js';

export { namedFrame as sseEvent } from '../http/sse.js';

/** The header naming the execution behind a /v1 answer (streamed or not). */
export const EXECUTION_HEADER = 'x-agent-desk-execution-id';

/**
 * Holds the socket's writes until the work of this turn of the loop is done, so the headers and
 * the frames that are ready at once (a door's opening events and the first text, held until there
 * was text) leave in one packet instead of one each: the client is woken once, with the text. The
 * socket is uncorked on the next tick whatever happens (every microtask of this turn ran), so
 * nothing ever waits longer than that. No socket (an in-process caller of app.fetch): nothing to do.
 */
export function inOnePacket(socket: Socket | undefined): void {
  if (!socket || socket.destroyed) return;
  socket.cork();
  process.nextTick(() => {
    socket.uncork();
    mark('uncorked');
  });
}

/**
 * A /v1 door's streamed answer through the one SSE writer: `frames` (already framed) are pulled
 * as the client reads them. A failure of our own after the headers went out is logged and ends
 * the stream with `failFrame()`. A client that goes away stops only its stream (the run's events
 * are let go), never the execution.
 */
export function gatewayStream(run: GatewayRun, log: Logger, frames: AsyncIterable<string>, failFrame: () => string, socket?: Socket): Response {
  inOnePacket(socket);
  return sseResponse(frames, {
    frame: String,
    headers: { [EXECUTION_HEADER]: String(run.executionId) },
    failure: (err) => {
      log.error({ err, execution: run.executionId }, 'a /v1 stream failed');
      return failFrame();
    },
    onCancel: () => void run.events.return?.(),
  });
}
