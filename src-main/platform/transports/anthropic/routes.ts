/**
 * `/v1/messages` (Anthropic's Messages API) over the same gateway as the OpenAI doors: a message
 * is an execution (`msg_<execution id>`), the client's tools come back as tool_use blocks, and
 * errors are in Anthropic's shape (errors.ts, the operations' declared dialect).
 */
import type { Socket } from 'node:net';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/env.js';
import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import { anthropicOperations, type AnthropicCountRequest, type AnthropicMessagesRequest } from '../../contract/anthropic-messages.js';
import { isFinished } from '../../contract/executions.js';
import { serveOperations } from '../http/operations.js';
import { mark } from '../../kernel/first-token-marks.js';
import { countTokensSync } from '../../engine/tokens.js';
import { IMAGE_TOKENS } from '../../engine/context.js';
import type { ProviderModelSource } from '../gateway/models.js';
import { executionFailure } from '../gateway/failure.js';
import { checkConversation, gatewayTarget, startGateway, type ClientCall, type GatewayRun, type StopReason } from '../gateway/gateway.js';
import { collect, HOLD_HEADERS_MS, holdHeaders, reader } from '../gateway/respond.js';
import { EXECUTION_HEADER } from '../gateway/stream.js';
import { namedFrame } from '../http/sse.js';
import { gatewayStream } from '../gateway/stream.js';
import { anthropicErrorBody } from './errors.js';
import { readAnthropicMessages, readAnthropicToolChoice, readAnthropicTools } from './read.js';

const STOP: Record<StopReason, 'end_turn' | 'max_tokens' | 'tool_use'> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' };

/** Tool use ids in Anthropic's style; the client sends them back as they are. */
const toolUseId = (c: ClientCall) => c.id.replace(/^call_/, 'toolu_');
const inputOf = (c: ClientCall): unknown => {
  try {
    return JSON.parse(c.arguments || '{}');
  } catch {
    return {};
  }
};

async function startMessage(p: TransportDeps, principal: Principal, body: AnthropicMessagesRequest, providers: ProviderModelSource): Promise<GatewayRun> {
  const tools = readAnthropicTools(body.tools);
  const choice = readAnthropicToolChoice(body.tool_choice, tools);
  const conversation = readAnthropicMessages(body);
  const target = await gatewayTarget(p, principal.userId, body.model, undefined, providers);
  return startGateway(p, principal, target, {
    ...conversation,
    param: 'messages',
    tools,
    ...choice,
    maxTokens: body.max_tokens,
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(body.stop_sequences?.length ? { stop: body.stop_sequences.filter((s) => s !== '') } : {}),
    ...(body.answers ? { answers: body.answers } : {}),
  });
}

const messageShell = (run: GatewayRun) => ({ id: `msg_${run.executionId}`, type: 'message' as const, role: 'assistant' as const, model: run.echo });

async function jsonMessage(run: GatewayRun): Promise<Response> {
  const { output, last } = await collect(run);
  if (!last || last.status !== 'completed') throw executionFailure(run.executionId, last?.error ?? null, last?.status ?? 'failed');
  const f = run.finish(last);
  const content = [...(output ? [{ type: 'text', text: output }] : []), ...f.calls.map((c) => ({ type: 'tool_use', id: toolUseId(c), name: c.name, input: inputOf(c) }))];
  const body = { ...messageShell(run), content, stop_reason: STOP[f.reason], stop_sequence: null, usage: { input_tokens: f.inputTokens, output_tokens: f.outputTokens } };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', [EXECUTION_HEADER]: String(run.executionId) } });
}

/**
 * Anthropic's stream: message_start, a text block (content_block_start, text_delta deltas,
 * content_block_stop), a tool_use block per call (its input as input_json_delta), message_delta
 * (stop_reason, usage), message_stop. A failure after the headers is an `error` event.
 */
async function streamedMessage(run: GatewayRun, p: TransportDeps, socket?: Socket): Promise<Response> {
  const { held, pending } = await holdHeaders(run, HOLD_HEADERS_MS, (e) => executionFailure(run.executionId, e.error, e.status));
  const next = reader(run, held, pending);
  const ev = (type: string, payload: Record<string, unknown> = {}) => namedFrame(type, { type, ...payload });
  const errorEvent = (status: number, message: string) => namedFrame('error', anthropicErrorBody(status, message));
  return gatewayStream(
    run,
    p.log,
    (async function* () {
      yield ev('message_start', { message: { ...messageShell(run), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } } });
      let index = 0;
      let open = false;
      const openText = function* () {
        if (open) return;
        open = true;
        yield ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      };
      for (;;) {
        const r = await next();
        if (r.done) return;
        const e = r.value;
        if (!isFinished(e.status)) {
          if (e.output) {
            yield* openText();
            yield ev('content_block_delta', { index, delta: { type: 'text_delta', text: e.output } });
          }
          continue;
        }
        if (e.status !== 'completed') {
          const err = executionFailure(run.executionId, e.error, e.status);
          yield errorEvent(err.status, err.message);
          return;
        }
        const f = run.finish(e);
        if (open || !f.calls.length) {
          yield* openText();
          yield ev('content_block_stop', { index });
          index++;
        }
        for (const c of f.calls) {
          yield ev('content_block_start', { index, content_block: { type: 'tool_use', id: toolUseId(c), name: c.name, input: {} } });
          yield ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(inputOf(c)) } });
          yield ev('content_block_stop', { index });
          index++;
        }
        yield ev('message_delta', { delta: { stop_reason: STOP[f.reason], stop_sequence: null }, usage: { input_tokens: f.inputTokens, output_tokens: f.outputTokens } });
        yield ev('message_stop');
        return;
      }
    })(),
    () => errorEvent(500, 'The stream failed; the execution may still finish (see GET /api/agent-responses/{id}).'),
    socket,
  );
}

/** An estimate of the request's input tokens (the model's own tokenizer is not at hand). */
function countTokens(body: AnthropicCountRequest): number {
  const conv = readAnthropicMessages(body);
  checkConversation({ ...conv, param: 'messages' });
  const texts = [...conv.system, ...conv.messages.flatMap((m) => [m.content, ...(m.toolCalls ?? []).map((c) => c.name + c.arguments)]), JSON.stringify(body.tools ?? [])];
  return texts.reduce((n, t) => n + countTokensSync(t), 0) + conv.messages.reduce((n, m) => n + 4 + (m.images?.length ?? 0) * IMAGE_TOKENS, 0);
}

/** The Messages operations, on the router mounted at /v1. */
export function anthropicRoutes(r: OpenAPIHono<AppEnv>, p: TransportDeps, providers: ProviderModelSource): void {
  serveOperations(r, anthropicOperations, {
    createAnthropicMessage: async ({ body }, c) => {
      mark('door');
      const run = await startMessage(p, c.get('principal'), body, providers);
      return body.stream ? streamedMessage(run, p, c.env?.incoming?.socket) : jsonMessage(run);
    },
    countAnthropicTokens: async ({ userId, body }) => {
      await gatewayTarget(p, userId, body.model, undefined, providers);
      return { input_tokens: countTokens(body) };
    },
  });
}
