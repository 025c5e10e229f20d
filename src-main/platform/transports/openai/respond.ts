import { isFinished, type ExecutionEvent } from '../../contract/executions.js';
import type { Logger } from '../../kernel/log.js';
import { executionFailure, type ChatRun } from './chat.js';
import { OpenAIError, openAIErrorBody } from './errors.js';
import { gatewayStream } from './sse-body.js';
import { chunk, completion, EXECUTION_HEADER, sseData, SSE_DONE, toolCallDeltas, usageChunk, usageOf, type CompletionMeta } from './shapes.js';
import type { GatewayRun } from './gateway.js';

const metaOf = (run: GatewayRun): CompletionMeta => ({ executionId: run.executionId, created: run.created, model: run.echo });

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
export const HOLD_HEADERS_MS = 1000;

export type Next = IteratorResult<ExecutionEvent>;

/**
 * `stream: true`: OpenAI's SSE. A role chunk, one content chunk per engine delta, a chunk with
 * `finish_reason`, the usage chunk when `stream_options.include_usage`, then `data: [DONE]`.
 * A failure after the headers went out is one `data: {"error": ...}` frame (the SDK throws it).
 * A client that goes away stops only its stream, not the execution.
 */
export async function streamResponse(chat: ChatRun, log: Logger): Promise<Response> {
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
  );
}
