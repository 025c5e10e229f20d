import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import type { Agent } from '../../contract/agents.js';
import type { ChatCompletionRequest, FinishReason, Usage } from '../../contract/openai.js';
import type { ExecutionEvent } from '../../contract/executions.js';
import type { Overrides } from '../../engine/runner.js';
import { OpenAIError, modelNotFound, unsupported } from './errors.js';
import { resolveModel, type ProviderModelSource } from './models.js';
import { toEngineMessages } from './messages.js';
import { usageOf, type CompletionMeta } from './shapes.js';

/** One chat completion, running in the execution engine. */
export interface ChatRun {
  meta: CompletionMeta;
  executionId: number;
  includeUsage: boolean;
  /** The engine's stream events: `running` deltas, then one final `completed` | `failed` | `canceled`. */
  events: AsyncIterator<ExecutionEvent>;
  /** After the final event: usage and OpenAI's finish reason. */
  finish(): { usage: Usage; finishReason: FinishReason };
}

/** What a failed execution means to an OpenAI client: its status, type and whether a retry could help. */
export function executionFailure(executionId: number, error: { message: string; code: string } | null, status: string): OpenAIError {
  const code = error?.code ?? status;
  const message = error?.message ?? `The execution ended ${status}.`;
  // The execution is stored and billed: a blind retry would run (and bill) a new one, so never ask for it.
  const headers = { 'x-should-retry': 'false', 'x-agent-desk-execution-id': String(executionId) };
  if (status === 'canceled') return new OpenAIError(409, message, 'invalid_request_error', 'canceled', null, headers);
  if (code === 'model_unavailable' || code === 'tool_unavailable' || code === 'unsupported') {
    return new OpenAIError(400, message, 'invalid_request_error', code, code === 'model_unavailable' ? 'model' : null, headers);
  }
  if (code === 'interrupted') return new OpenAIError(503, message, 'server_error', code, null, headers);
  return new OpenAIError(502, message, 'server_error', code, null, headers);
}

/** The agent and model a request runs: `model` names an agent, or a raw model run by the chat agent. */
async function target(p: TransportDeps, userId: number, body: ChatCompletionRequest, fixedAgentId: string | undefined, providers: ProviderModelSource) {
  if (fixedAgentId !== undefined) {
    const agent = p.services.agents.get(userId, fixedAgentId);
    if (agent.active !== 1) throw modelNotFound(agent.slug);
    if (!body.model || body.model === agent.slug) return { agent, model: undefined, echo: agent.slug };
    // Another name on an agent's own URL: that agent, run with this raw model.
    const resolved = await resolveModel(p, userId, body.model, providers);
    if (resolved.kind === 'agent') throw unsupported('model', `This URL is the agent \`${agent.slug}\`; to run the agent \`${body.model}\`, use /v1 or its own URL.`);
    return { agent, model: resolved.model, echo: body.model };
  }
  if (!body.model) throw new OpenAIError(400, 'You must provide a model parameter: an agent slug or a provider model (GET /v1/models).', 'invalid_request_error', 'missing_required_parameter', 'model');
  const resolved = await resolveModel(p, userId, body.model, providers);
  return { agent: resolved.agent, model: resolved.kind === 'provider' ? resolved.model : undefined, echo: body.model };
}

/**
 * The agent's answers: the client's `answers` (ext), plus, for agents that are not chats, the last
 * user message as the first required free-text question (a summarizer's `text`) when not given.
 */
export function answersWithMessage(agent: Agent, given: Record<string, unknown> | undefined, lastUser: string): Record<string, unknown> {
  const answers: Record<string, unknown> = { ...(given ?? {}) };
  if (agent.type !== 'chat') {
    const q = agent.questions.find((x) => x.required && x.type === 'string' && x.name !== 'model');
    if (q && (answers[q.name] === undefined || answers[q.name] === '')) answers[q.name] = lastUser;
  }
  return answers;
}

function overridesOf(body: ChatCompletionRequest, model: string | undefined): Overrides {
  const o: Overrides = {};
  if (model !== undefined) o.model = model;
  if (typeof body.temperature === 'number') o.temperature = body.temperature;
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (typeof max === 'number') o.maxTokens = max;
  if (body.stop !== undefined && body.stop !== null) o.stop = (Array.isArray(body.stop) ? body.stop : [body.stop]).filter((s) => s !== '');
  return o;
}

/** Parameters we cannot honour are refused by name rather than silently ignored. */
function refuseUnsupported(body: ChatCompletionRequest): void {
  if (typeof body.n === 'number' && body.n !== 1) throw unsupported('n', 'Only one choice per request is supported (`n` must be 1).');
  const tc = body.tool_choice;
  if (tc === 'required' || (tc !== null && typeof tc === 'object')) {
    throw unsupported('tool_choice', 'Client-side tools are not supported: Agent Desk agents run their own tools. Leave tool_choice unset, "auto" or "none".');
  }
}

/**
 * Starts a chat completion as an execution of the agent, through the same engine as
 * `POST /api/agents/{id}/execute`: same context (instructions, memories, files), credits, storage
 * and webhooks. Validation errors come before anything runs.
 */
export async function startChat(p: TransportDeps, principal: Principal, body: ChatCompletionRequest, opts: { fixedAgentId?: string; providers: ProviderModelSource }): Promise<ChatRun> {
  refuseUnsupported(body);
  const { agent, model, echo } = await target(p, principal.userId, body, opts.fixedAgentId, opts.providers);
  const messages = toEngineMessages(body.messages);
  const lastUser = messages[messages.length - 1].content;
  const overrides = overridesOf(body, model);
  const { execution, events } = await p.services.executions.start(
    principal,
    agent,
    { messages, answers: answersWithMessage(agent, body.answers, lastUser), ...(body.file_ids ? { file_ids: body.file_ids } : {}) },
    { overrides, steeringOptional: true },
  );
  const meta: CompletionMeta = { executionId: execution.id, created: Math.floor(Date.parse(execution.created_at) / 1000), model: echo };
  return {
    meta,
    executionId: execution.id,
    includeUsage: body.stream_options?.include_usage === true,
    events: events[Symbol.asyncIterator](),
    finish() {
      const t = p.services.executions.tokens(principal.userId, execution.id);
      // OpenAI reports `length` when the token budget, not the model, ended the answer.
      const finishReason: FinishReason = overrides.maxTokens !== undefined && t.outputTokens >= overrides.maxTokens ? 'length' : 'stop';
      return { usage: usageOf(t.inputTokens, t.outputTokens), finishReason };
    },
  };
}
