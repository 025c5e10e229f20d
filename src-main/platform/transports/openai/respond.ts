import type { Socket } from 'node:net';
import { isFinished } from '../../contract/executions.js';
import type { Logger } from '../../kernel/log.js';
import { executionFailure } from '../gateway/failure.js';
import type { ChatRun } from './chat.js';
import { OpenAIError } from '../gateway/errors.js';
import { openAIErrorBody } from './errors.js';
import { collect, HOLD_HEADERS_MS, holdHeaders, reader } from '../gateway/respond.js';
import { gatewayStream } from '../gateway/stream.js';
import { chunk, completion, sseData, SSE_DONE, toolCallDeltas, usageChunk, usageOf, type CompletionMeta } from './shapes.js';
import { EXECUTION_HEADER } from '../gateway/stream.js';
import type { GatewayRun } from '../gateway/gateway.js';

const metaOf = (run: GatewayRun): CompletionMeta => ({ executionId: run.executionId, created: run.created, model: run.echo });

/** `stream: false`: waits for the end, then answers one `chat.completion`, or the failure in OpenAI's shape. */
export async function completionResponse(chat: ChatRun): Promise<Response> {
  const { run } = chat;
  const { output, last } = await collect(run);
  if (!last || last.status !== 'completed') throw executionFailure(run.executionId, last?.error ?? null, last?.status ?? 'failed');
  const f = run.finish(last);
  return new Response(JSON.stringify(completion(metaOf(run), output, f.reason, usageOf(f.inputTokens, f.outputTokens), f.calls)), {
    status: 200,
    headers: { 'content-type': 'application/json', [EXECUTION_HEADER]: String(run.executionId) },
  });
}

/** How long a stream may hold its headers waiting for the first text (holdHeaders). */
/**
 * `stream: true`: OpenAI's SSE. A role chunk, one content chunk per engine delta, a chunk with
 * `finish_reason`, the usage chunk when `stream_options.include_usage`, then `data: [DONE]`.
 * A failure after the headers went out is one `data: {"error": ...}` frame (the SDK throws it).
 * A client that goes away stops only its stream, not the execution.
 */
export async function streamResponse(chat: ChatRun, log: Logger, socket?: Socket): Promise<Response> {
  const { run } = chat;
  const { held, pending } = await holdHeaders(run, HOLD_HEADERS_MS, (e) => executionFailure(run.executionId, e.error, e.status));
  const next = reader(run, held, pending);
  const meta = metaOf(run);
  const withUsage = chat.includeUsage;
  return gatewayStream(
    run,
    log,
    (async function* () {
      yield sseData(chunk(meta, { role: 'assistant', content: '', refusal: null }, null, withUsage));
      for (;;) {
        const r = await next();
        if (r.done) return;
        const ev = r.value;
        if (!isFinished(ev.status)) {
          if (ev.output) yield sseData(chunk(meta, { content: ev.output }, null, withUsage));
          continue;
        }
        if (ev.status === 'completed') {
          const f = run.finish(ev);
          for (const d of toolCallDeltas(f.calls)) yield sseData(chunk(meta, d, null, withUsage));
          yield sseData(chunk(meta, {}, f.reason, withUsage));
          if (withUsage) yield sseData(usageChunk(meta, usageOf(f.inputTokens, f.outputTokens)));
          yield SSE_DONE;
        } else {
          const err = executionFailure(run.executionId, ev.error, ev.status);
          yield sseData(openAIErrorBody(err.message, err.type, err.param, err.openaiCode));
        }
        return;
      }
    })(),
    () => {
      const e = new OpenAIError(500, 'The stream failed; the execution may still finish (see GET /api/agent-responses/{id}).', 'server_error', null);
      return sseData(openAIErrorBody(e.message, e.type, null, null));
    },
    socket,
  );
}
