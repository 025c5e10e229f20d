/**
 * What the /v1 doors share (chat completions, responses, Anthropic messages): each reads its own
 * request into a GatewayInput, and this runs it as an execution of the agent through the same
 * executions service as `POST /api/agents/{id}/execute` (instructions, memories, files, the agent's
 * MCP tools, credits, storage, webhooks). The client's tools ride along in the run's overrides
 * (engine/client-tools.ts): the model's calls to them end the run and come back here as steps.
 */
import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import type { Agent } from '../../contract/agents.js';
import { parseExecuteBody, type ExecutionEvent } from '../../contract/executions.js';
import { textQuestionOf } from '../../contract/agent-questions.js';
import type { ToolStep } from '../../contract/tools.js';
import type { Overrides } from '../../engine/runner.js';
import type { Turn } from '../../engine/turn.js';
import type { ChatMessage, ToolCall, ToolChoice, ToolSpec } from '../../engine/providers/types.js';
import { isClientStep, type ClientRequest } from '../../engine/client-tools.js';
import { NotFoundError } from '../../kernel/errors.js';
import { OpenAIError, modelNotFound, unsupported } from './errors.js';
import { resolveModel, type ProviderModelSource } from './models.js';
import { mark } from '../../kernel/first-token-marks.js';

export interface GatewayInput {
  /** the client's system and developer text, in order (added to the agent's instructions) */
  system: string[];
  /** user, assistant (with tool calls) and tool messages; images on user turns */
  messages: ChatMessage[];
  /** where each message came from in the request (`messages[2]`, `input[0]`), for 400s that name it */
  params: string[];
  /** the request's name for its conversation (`messages`, `input`) */
  param: string;
  tools: ToolSpec[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  /** ext: answers to the agent's questions, and attached files, as on execute */
  answers?: Record<string, unknown>;
  fileIds?: number[];
  /** continue the session after this execution (`previous_response_id`) */
  after?: number;
}

export interface GatewayTarget {
  agent: Agent;
  /** a raw provider model to run the agent with */
  model: string | undefined;
  /** the `model` to echo in answers */
  echo: string;
}

/** A model's call to one of the client's tools, with the id the client answers it by. */
export interface ClientCall {
  id: string;
  name: string;
  /** JSON text */
  arguments: string;
}

export type StopReason = 'stop' | 'length' | 'tool_calls';

export interface GatewayRun {
  executionId: number;
  /** Unix seconds */
  created: number;
  echo: string;
  /** the engine's stream events: `running` deltas, then one final `completed` | `failed` | `canceled` */
  events: AsyncIterator<ExecutionEvent>;
  /** After the final event: tokens, the client calls it holds, and why the answer stopped. */
  finish(final: ExecutionEvent): { inputTokens: number; outputTokens: number; calls: ClientCall[]; reason: StopReason };
}

/** Call ids name the execution and its step, so a later request (or `previous_response_id`) finds the call again. */
export const callId = (executionId: number, stepId: number) => `call_${executionId}_${stepId}`;

const argsText = (a: unknown) => (typeof a === 'string' ? a : JSON.stringify(a ?? {}));

/** The client calls an execution's steps hold, in order. */
export function clientCalls(executionId: number, steps: ToolStep[] | undefined): ClientCall[] {
  return (steps ?? []).filter(isClientStep).sort((a, b) => a.id - b.id).map((s) => ({ id: callId(executionId, s.id), name: s.tool, arguments: argsText(s.arguments) }));
}

/** The agent and model a request runs: `model` names an agent, or a raw model run by the chat agent. */
export async function gatewayTarget(p: TransportDeps, userId: number, model: string | undefined, fixedAgentId: string | undefined, providers: ProviderModelSource): Promise<GatewayTarget> {
  if (fixedAgentId !== undefined) {
    const agent = p.services.agents.get(userId, fixedAgentId);
    if (agent.active !== 1) throw modelNotFound(agent.slug);
    if (!model || model === agent.slug) return { agent, model: undefined, echo: agent.slug };
    // Another name on an agent's own URL: that agent, run with this raw model.
    const resolved = await resolveModel(p, userId, model, providers);
    if (resolved.kind === 'agent') throw unsupported('model', `This URL is the agent \`${agent.slug}\`; to run the agent \`${model}\`, use /v1 or its own URL.`);
    return { agent, model: resolved.model, echo: model };
  }
  if (!model) throw new OpenAIError(400, 'You must provide a model parameter: an agent slug or a provider model (GET /v1/models).', 'invalid_request_error', 'missing_required_parameter', 'model');
  const resolved = await resolveModel(p, userId, model, providers);
  return { agent: resolved.agent, model: resolved.kind === 'provider' ? resolved.model : undefined, echo: model };
}

/**
 * The agent's answers: the client's `answers` (ext), plus, for agents that are not chats, the last
 * user message as the question typed text answers (textQuestionOf: a summarizer's `text`) when not given.
 */
export function answersWithMessage(agent: Agent, given: Record<string, unknown> | undefined, lastUser: string): Record<string, unknown> {
  const answers: Record<string, unknown> = { ...(given ?? {}) };
  const q = textQuestionOf(agent);
  if (q && (answers[q.name] === undefined || answers[q.name] === '')) answers[q.name] = lastUser;
  return answers;
}

/**
 * Tool messages answer the calls of the assistant message before them, every call is answered
 * before the conversation moves on, and it ends on a user message or tool results: what every
 * provider requires, refused here with a 400 naming the message rather than failing upstream.
 */
export function checkConversation(input: Pick<GatewayInput, 'messages' | 'params' | 'param'>, earlierCalls: ToolCall[] = []): void {
  let pending = new Map(earlierCalls.map((c) => [c.id, c]));
  let pendingAt = input.param;
  input.messages.forEach((m, i) => {
    const at = input.params[i] ?? input.param;
    if (m.role === 'tool') {
      if (!pending.delete(m.toolCallId ?? '')) {
        throw unsupported(`${at}.tool_call_id`, `The tool result for \`${m.toolCallId}\` answers no tool call of the assistant message before it.`);
      }
      return;
    }
    if (pending.size) throw unsupported(pendingAt, `Every tool call needs its result before the conversation goes on; \`${[...pending.keys()][0]}\` has none.`);
    if (m.role === 'assistant' && m.toolCalls?.length) {
      pending = new Map(m.toolCalls.map((c) => [c.id, c]));
      pendingAt = `${at}.tool_calls`;
    }
  });
  if (pending.size) throw unsupported(pendingAt, `Every tool call needs its result before the conversation goes on; \`${[...pending.keys()][0]}\` has none.`);
  const last = input.messages[input.messages.length - 1];
  if (!last || (last.role !== 'user' && last.role !== 'tool')) throw unsupported(input.param, `The ${input.param} must end with a user message or tool results.`);
}

/** A message as stored text: what the session shows and retrieval reads (the model gets the rich form). */
function textOf(m: ChatMessage, names: Map<string, string>): string {
  const images = (m.images ?? []).map(() => '[image]');
  if (m.role === 'tool') return [`[Result of ${names.get(m.toolCallId ?? '') ?? 'a tool call'}]`, m.content, ...images].filter(Boolean).join('\n');
  const calls = (m.toolCalls ?? []).map((c) => `[Called ${c.name} ${c.arguments}]`);
  return [m.content, ...images, ...calls].filter(Boolean).join('\n');
}

/** The conversation as the executions service stores it: alternating user/assistant text turns, ending on user. */
export function storedTurns(messages: ChatMessage[], earlierCalls: ToolCall[], collapse: boolean): Turn[] {
  const names = new Map<string, string>(earlierCalls.map((c) => [c.id, c.name]));
  const turns: Turn[] = [];
  for (const m of messages) {
    for (const c of m.toolCalls ?? []) names.set(c.id, c.name);
    const role = collapse || m.role !== 'assistant' ? 'user' : 'assistant';
    const text = textOf(m, names);
    if (role === 'assistant' && !text) continue;
    const last = turns[turns.length - 1];
    if (last && last.role === role) last.content += `\n\n${text}`;
    else turns.push({ role, content: text });
  }
  return turns;
}

const isRich = (m: ChatMessage) => m.role === 'tool' || !!m.toolCalls?.length || !!m.images?.length;

/** The previous execution a request continues, and the calls it handed back (its last assistant turn, with them). */
function previous(p: TransportDeps, userId: number, id: number): { head: ChatMessage | null; calls: ToolCall[] } {
  let e;
  try {
    e = p.services.executions.get(userId, id);
  } catch (err) {
    if (err instanceof NotFoundError) throw new OpenAIError(404, `Previous response with id 'resp_${id}' not found.`, 'invalid_request_error', 'previous_response_not_found', 'previous_response_id');
    throw err;
  }
  const calls = clientCalls(e.id, e.steps);
  // The stored transcript holds only succeeded executions: another one is not continued from.
  if (e.status !== 'succeeded' || !calls.length) return { head: null, calls: [] };
  return { head: { role: 'assistant', content: e.output, toolCalls: calls }, calls };
}

/**
 * Starts the execution. Everything a client could get wrong is refused (4xx) before anything is
 * stored; from then on it runs in the background like every execution.
 */
export async function startGateway(p: TransportDeps, principal: Principal, target: GatewayTarget, input: GatewayInput): Promise<GatewayRun> {
  mark('gateway start');
  const { head, calls: earlierCalls } = input.after !== undefined ? previous(p, principal.userId, input.after) : { head: null, calls: [] };
  checkConversation(input, earlierCalls);
  // After a stored execution the new items are one user turn: the service then adds exactly it.
  const collapse = input.after !== undefined;
  const turns = storedTurns(input.messages, earlierCalls, collapse);
  const lastUser = turns[turns.length - 1].content;
  const system = input.system.filter((s) => s.trim());
  const messages = [...(system.length ? [{ role: 'developer', content: system.join('\n\n') }] : []), ...turns];

  const rich = !!head || input.messages.some(isRich);
  const client: ClientRequest | undefined =
    input.tools.length || rich
      ? {
          tools: input.tools,
          ...(input.toolChoice !== undefined ? { toolChoice: input.toolChoice } : {}),
          ...(input.parallelToolCalls !== undefined ? { parallelToolCalls: input.parallelToolCalls } : {}),
          ...(rich ? { conversation: (stored: Turn[]) => modelConversation(stored, turns, head, input.messages) } : {}),
        }
      : undefined;
  const overrides: Overrides = {};
  if (target.model !== undefined) overrides.model = target.model;
  if (input.temperature !== undefined) overrides.temperature = input.temperature;
  if (input.maxTokens !== undefined) overrides.maxTokens = input.maxTokens;
  if (input.stop?.length) overrides.stop = input.stop;
  if (client) overrides.client = client;

  const body: Record<string, unknown> = { messages, answers: answersWithMessage(target.agent, input.answers, lastUser) };
  if (input.fileIds?.length) body.file_ids = input.fileIds;
  if (input.after !== undefined) body.parent_id = input.after;
  const { execution, events } = await p.services.executions.start(principal, target.agent, parseExecuteBody(body), { overrides, steeringOptional: true });
  return {
    executionId: execution.id,
    created: Math.floor(Date.parse(execution.created_at) / 1000),
    echo: target.echo,
    events: events[Symbol.asyncIterator](),
    finish(final) {
      const t = p.services.executions.tokens(principal.userId, execution.id);
      const calls = clientCalls(execution.id, final.steps);
      // `length` when the token budget, not the model, ended the answer.
      const reason: StopReason = calls.length ? 'tool_calls' : input.maxTokens !== undefined && t.outputTokens >= input.maxTokens ? 'length' : 'stop';
      return { inputTokens: t.inputTokens, outputTokens: t.outputTokens, calls, reason };
    },
  };
}

/**
 * The conversation the model gets: the session's earlier turns as stored, then the previous
 * execution's answer with the calls it handed back, then the request's own messages with their
 * tool calls, results and images. A text agent's prompt (its answers, joined to the last user
 * message by the service) is kept.
 */
function modelConversation(stored: Turn[], added: Turn[], head: ChatMessage | null, messages: ChatMessage[]): ChatMessage[] {
  const keep = Math.max(0, stored.length - added.length - (head ? 1 : 0));
  const earlier: ChatMessage[] = stored.slice(0, keep).filter((t) => t.content || t.role === 'user').map((t) => ({ role: t.role, content: t.content }));
  const own = [...(head ? [head] : []), ...messages];
  const lastStored = stored[stored.length - 1];
  const lastOwn = own[own.length - 1];
  if (lastStored?.role === 'user' && lastOwn?.role === 'user' && lastStored.content !== added[added.length - 1]?.content) {
    own[own.length - 1] = { ...lastOwn, content: lastStored.content };
  }
  return [...earlier, ...own];
}
