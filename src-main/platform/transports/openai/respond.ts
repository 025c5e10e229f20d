import type { ExecutionEvent } from '../../contract/executions.js';
import type { Logger } from '../../kernel/log.js';
import { executionFailure, type ChatRun } from './chat.js';
import { OpenAIError, openAIErrorBody } from './errors.js';
import { chunk, completion, EXECUTION_HEADER, sseData, SSE_DONE, usageChunk } from './shapes.js';

const isFinal = (e: ExecutionEvent) => e.status !== 'running' && e.status !== 'starting';

/** `stream: false`: waits for the end, then answers one `chat.completion`, or the failure in OpenAI's shape. */
export async function completionResponse(run: ChatRun): Promise<Response> {
  let output = '';
  let last: ExecutionEvent | undefined;
  for (;;) {
    const { value, done } = await run.events.next();
    if (done) break;
    if (isFinal(value)) {
      last = value;
      break;
    }
    output += value.output;
  }
  if (!last || last.status !== 'completed') throw executionFailure(run.executionId, last?.error ?? null, last?.status ?? 'failed');
  const { usage, finishReason } = run.finish();
  return new Response(JSON.stringify(completion(run.meta, output, finishReason, usage)), {
    status: 200,
    headers: { 'content-type': 'application/json', [EXECUTION_HEADER]: String(run.executionId) },
  });
}

/**
 * How long a stream may hold its headers waiting for the first text: long enough that a request
 * failing at once (no model configured, provider down) is answered as a real HTTP error, short
 * enough that a slow-loading local model still shows the client a live stream.
 */
const HOLD_HEADERS_MS = 1000;

type Next = IteratorResult<ExecutionEvent>;

/**
 * `stream: true`: OpenAI's SSE. A role chunk, one content chunk per engine delta, a chunk with
 * `finish_reason`, the usage chunk when `stream_options.include_usage`, then `data: [DONE]`.
 * A failure after the headers went out is one `data: {"error": ...}` frame (the SDK throws it).
 * A client that goes away stops only its stream, not the execution.
 */
export async function streamResponse(run: ChatRun, log: Logger): Promise<Response> {
  // Hold the headers until there is text, an end, or HOLD_HEADERS_MS has passed.
  const held: Next[] = [];
  let pending: Promise<Next> | null = null;
  const deadline = Date.now() + HOLD_HEADERS_MS;
  for (;;) {
    pending ??= run.events.next();
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([pending, new Promise<null>((res) => (timer = setTimeout(() => res(null), Math.max(0, deadline - Date.now()))))]);
    clearTimeout(timer);
    if (r === null) break;
    pending = null;
    held.push(r);
    if (r.done || isFinal(r.value) || r.value.output) break;
  }
  const first = held[held.length - 1];
  if (first && !first.done && isFinal(first.value) && first.value.status !== 'completed') {
    throw executionFailure(run.executionId, first.value.error, first.value.status);
  }

  const enc = new TextEncoder();
  const withUsage = run.includeUsage;
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
      send(sseData(chunk(run.meta, { role: 'assistant', content: '', refusal: null }, null, withUsage)));
      try {
        for (;;) {
          let r: Next;
          if (held.length) r = held.shift()!;
          else if (pending) {
            r = await pending;
            pending = null;
          } else r = await run.events.next();
          if (closed || r.done) break;
          const ev = r.value;
          if (!isFinal(ev)) {
            if (ev.output) send(sseData(chunk(run.meta, { content: ev.output }, null, withUsage)));
            continue;
          }
          if (ev.status === 'completed') {
            const { usage, finishReason } = run.finish();
            send(sseData(chunk(run.meta, {}, finishReason, withUsage)));
            if (withUsage) send(sseData(usageChunk(run.meta, usage)));
            send(SSE_DONE);
          } else {
            const err = executionFailure(run.executionId, ev.error, ev.status);
            send(sseData(openAIErrorBody(err.message, err.type, err.param, err.openaiCode)));
          }
          break;
        }
      } catch (err) {
        log.error({ err, execution: run.executionId }, 'OpenAI-compatible stream failed');
        const e = new OpenAIError(500, 'The stream failed; the execution may still finish (see GET /api/agent-responses/{id}).', 'server_error', null);
        send(sseData(openAIErrorBody(e.message, e.type, null, null)));
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
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      [EXECUTION_HEADER]: String(run.executionId),
    },
  });
}
