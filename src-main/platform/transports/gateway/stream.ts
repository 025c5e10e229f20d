import type { Logger } from '../../kernel/log.js';
import { sseResponse } from '../http/sse.js';
import type { GatewayRun } from './gateway.js';

export { namedFrame as sseEvent } from '../http/sse.js';

/** The header naming the execution behind a /v1 answer (streamed or not). */
export const EXECUTION_HEADER = 'x-agent-desk-execution-id';

/**
 * A /v1 door's streamed answer through the one SSE writer: `frames` (already framed) are pulled
 * as the client reads them. A failure of our own after the headers went out is logged and ends
 * the stream with `failFrame()`. A client that goes away stops only its stream (the run's events
 * are let go), never the execution.
 */
export function gatewayStream(run: GatewayRun, log: Logger, frames: AsyncIterable<string>, failFrame: () => string): Response {
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
