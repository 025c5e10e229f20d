/**
 * `POST /v1/responses` and `GET /v1/responses/{id}` (OpenAI's Responses API) over the same
 * gateway as chat completions: a response is an execution (`resp_<execution id>`), and
 * `previous_response_id` continues its session.
 */
import type { Socket } from 'node:net';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/env.js';
import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import { isFinished, type ExecutionEvent } from '../../contract/executions.js';
import { responsesOperations, type ResponseObject, type ResponsesRequest } from '../../contract/openai-responses.js';
import { NotFoundError } from '../../kernel/errors.js';
import { OpenAIError, unsupported } from '../gateway/errors.js';
import type { ProviderModelSource } from '../gateway/models.js';
import { readResponsesInput, readResponsesTools } from './responses-input.js';
import { readToolChoice } from './tools.js';
import { clientCalls, gatewayTarget, startGateway, type ClientCall, type GatewayRun } from '../gateway/gateway.js';
import { executionFailure } from '../gateway/failure.js';
import { collect, HOLD_HEADERS_MS, holdHeaders, reader } from '../gateway/respond.js';
import { EXECUTION_HEADER } from '../gateway/stream.js';
import { namedFrame } from '../http/sse.js';
import { gatewayStream } from '../gateway/stream.js';
import { serveOperations } from '../http/operations.js';
import { mark } from '../../kernel/first-token-marks.js';

type Status = 'completed' | 'failed' | 'in_progress' | 'incomplete' | 'cancelled';

/** What a response echoes of its request. */
interface Echo {
  model: string;
  instructions: string | null;
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  store: boolean;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
}

export const responseId = (executionId: number) => `resp_${executionId}`;

/** `resp_<execution id>` → the execution id; anything else names no response. */
function executionOf(id: string, param: string | null): number {
  const m = /^resp_(\d{1,15})$/.exec(id);
  if (!m) throw new OpenAIError(404, `Response with id '${id}' not found.`, 'invalid_request_error', param ? 'previous_response_not_found' : 'not_found', param);
  return Number(m[1]);
}

const usageOf = (input: number, output: number) => ({
  input_tokens: input,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: output,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: input + output,
});

const textPart = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
const messageItem = (executionId: number, text: string, status: 'in_progress' | 'completed') => ({
  type: 'message',
  id: `msg_${executionId}`,
  status,
  role: 'assistant',
  content: status === 'in_progress' ? [] : [textPart(text)],
});
const functionItem = (c: ClientCall, status: 'in_progress' | 'completed') => ({
  type: 'function_call',
  id: `fc_${c.id.replace(/^call_/, '')}`,
  call_id: c.id,
  name: c.name,
  arguments: status === 'in_progress' ? '' : c.arguments,
  status,
});

/** The output items of a finished run: its text (when there is text or nothing else), then its calls. */
function outputItems(executionId: number, text: string, calls: ClientCall[]) {
  return [...(text || !calls.length ? [messageItem(executionId, text, 'completed')] : []), ...calls.map((c) => functionItem(c, 'completed'))];
}

function responseObject(executionId: number, created: number, echo: Echo, status: Status, output: unknown[], usage: ReturnType<typeof usageOf> | null, error: { code: string; message: string } | null = null) {
  return {
    id: responseId(executionId),
    object: 'response' as const,
    created_at: created,
    status,
    background: false,
    error,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    ...echo,
    output,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    text: { format: { type: 'text' } },
    truncation: 'disabled',
    usage,
    user: null,
  };
}

/** Reads, checks and starts a response; everything a client could get wrong is a 400 before anything runs. */
async function startResponse(p: TransportDeps, principal: Principal, body: ResponsesRequest, providers: ProviderModelSource): Promise<{ run: GatewayRun; echo: Echo }> {
  const extra = body as Record<string, unknown>;
  if (extra.background === true) throw unsupported('background', 'Background responses are not supported: every response is stored as an execution anyway (GET /v1/responses/{id}).');
  const format = (extra.text as { format?: { type?: unknown } } | undefined)?.format?.type;
  if (format !== undefined && format !== 'text') throw unsupported('text.format', 'Only text output is supported (`text.format.type` "text").');
  const tools = readResponsesTools(body.tools);
  const toolChoice = readToolChoice(body.tool_choice, tools);
  const conversation = readResponsesInput(body);
  const after = body.previous_response_id ? executionOf(body.previous_response_id, 'previous_response_id') : undefined;
  const target = await gatewayTarget(p, principal.userId, body.model, undefined, providers);
  const run = await startGateway(p, principal, target, {
    ...conversation,
    param: 'input',
    tools,
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(typeof body.parallel_tool_calls === 'boolean' ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof body.max_output_tokens === 'number' ? { maxTokens: body.max_output_tokens } : {}),
    ...(body.answers ? { answers: body.answers } : {}),
    ...(body.file_ids ? { fileIds: body.file_ids } : {}),
    ...(after !== undefined ? { after } : {}),
  });
  const echo: Echo = {
    model: target.echo,
    instructions: body.instructions ?? null,
    tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description || null, parameters: t.parameters, strict: false })),
    tool_choice: body.tool_choice ?? 'auto',
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    store: body.store ?? true,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
  };
  return { run, echo };
}

/** The run's end as a response: status, output items and usage. */
function finished(run: GatewayRun, echo: Echo, text: string, final: ExecutionEvent) {
  const f = run.finish(final);
  const status: Status = f.reason === 'length' ? 'incomplete' : 'completed';
  return { f, response: responseObject(run.executionId, run.created, echo, status, outputItems(run.executionId, text, f.calls), usageOf(f.inputTokens, f.outputTokens)) };
}

async function jsonResponse(run: GatewayRun, echo: Echo): Promise<Response> {
  const { output, last } = await collect(run);
  if (!last || last.status !== 'completed') throw executionFailure(run.executionId, last?.error ?? null, last?.status ?? 'failed');
  return new Response(JSON.stringify(finished(run, echo, output, last).response), {
    status: 200,
    headers: { 'content-type': 'application/json', [EXECUTION_HEADER]: String(run.executionId) },
  });
}

/**
 * The Responses stream: response.created and .in_progress, the message item (output_item.added,
 * content_part.added, output_text.delta..., output_text.done, content_part.done,
 * output_item.done), each function call item (its arguments in one delta), then
 * response.completed (or .incomplete); every event with its sequence_number. A failure after the
 * headers is response.failed.
 */
async function streamedResponse(run: GatewayRun, echo: Echo, p: TransportDeps, socket?: Socket): Promise<Response> {
  const { held, pending } = await holdHeaders(run, HOLD_HEADERS_MS, (e) => executionFailure(run.executionId, e.error, e.status));
  const next = reader(run, held, pending);
  let seq = 0;
  let text = '';
  const frame = (type: string, payload: Record<string, unknown>) => namedFrame(type, { type, sequence_number: seq++, ...payload });
  const itemId = `msg_${run.executionId}`;
  const failedFrame = (code: string, message: string) =>
    frame('response.failed', { response: responseObject(run.executionId, run.created, echo, 'failed', text ? [{ ...messageItem(run.executionId, text, 'completed'), status: 'incomplete' }] : [], null, { code, message }) });
  return gatewayStream(
    run,
    p.log,
    (async function* () {
      const start = responseObject(run.executionId, run.created, echo, 'in_progress', [], null);
      yield frame('response.created', { response: start });
      yield frame('response.in_progress', { response: start });
      let opened = false;
      const open = function* () {
        if (opened) return;
        opened = true;
        yield frame('response.output_item.added', { output_index: 0, item: messageItem(run.executionId, '', 'in_progress') });
        yield frame('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: textPart('') });
      };
      for (;;) {
        const r = await next();
        if (r.done) return;
        const ev = r.value;
        if (!isFinished(ev.status)) {
          if (ev.output) {
            yield* open();
            text += ev.output;
            yield frame('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: ev.output, logprobs: [] });
          }
          continue;
        }
        if (ev.status !== 'completed') {
          const err = executionFailure(run.executionId, ev.error, ev.status);
          yield failedFrame(err.openaiCode ?? 'server_error', err.message);
          return;
        }
        const { f, response } = finished(run, echo, text, ev);
        if (text || !f.calls.length) {
          yield* open();
          yield frame('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] });
          yield frame('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: textPart(text) });
          yield frame('response.output_item.done', { output_index: 0, item: messageItem(run.executionId, text, 'completed') });
        }
        for (const [k, c] of f.calls.entries()) {
          const output_index = (opened ? 1 : 0) + k;
          const item = functionItem(c, 'in_progress');
          yield frame('response.output_item.added', { output_index, item });
          yield frame('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: c.arguments });
          yield frame('response.function_call_arguments.done', { item_id: item.id, output_index, name: c.name, arguments: c.arguments });
          yield frame('response.output_item.done', { output_index, item: functionItem(c, 'completed') });
        }
        yield frame(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response });
        return;
      }
    })(),
    () => failedFrame('server_error', 'The stream failed; the execution may still finish (see GET /api/agent-responses/{id}).'),
    socket,
  );
}

/** A stored response: the execution as the Responses API shows it. */
function storedResponse(p: TransportDeps, userId: number, id: string) {
  const executionId = executionOf(id, null);
  let e;
  try {
    e = p.services.executions.get(userId, executionId);
  } catch (err) {
    if (err instanceof NotFoundError) throw new OpenAIError(404, `Response with id '${id}' not found.`, 'invalid_request_error', 'not_found', null);
    throw err;
  }
  const t = p.services.executions.tokens(userId, executionId);
  const status: Status = e.status === 'succeeded' ? 'completed' : e.status === 'failed' ? 'failed' : e.status === 'canceled' ? 'cancelled' : 'in_progress';
  const calls = status === 'completed' ? clientCalls(e.id, e.steps) : [];
  const echo: Echo = {
    model: e.model ?? '', instructions: null, tools: [], tool_choice: 'auto', parallel_tool_calls: true, previous_response_id: null,
    store: true, temperature: null, top_p: null, max_output_tokens: null, metadata: {},
  };
  const output = status === 'in_progress' ? [] : outputItems(e.id, e.output, calls);
  return responseObject(e.id, Math.floor(Date.parse(e.created_at) / 1000), echo, status, output, usageOf(t.inputTokens, t.outputTokens), e.error ? { code: e.error.code, message: e.error.message } : null);
}

/** The Responses operations, on the router mounted at /v1. */
export function responsesRoutes(r: OpenAPIHono<AppEnv>, p: TransportDeps, providers: ProviderModelSource): void {
  serveOperations(r, responsesOperations, {
    createOpenAIResponse: async ({ body }, c) => {
      mark('door');
      const { run, echo } = await startResponse(p, c.get('principal'), body, providers);
      return body.stream ? streamedResponse(run, echo, p, c.env?.incoming?.socket) : jsonResponse(run, echo);
    },
    retrieveOpenAIResponse: ({ userId, params }) => storedResponse(p, userId, params.response_id) as ResponseObject,
  });
}
