import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import type { ChatCompletionRequest } from '../../contract/openai.js';
import { unsupported } from '../gateway/errors.js';
import type { ProviderModelSource } from '../gateway/models.js';
import { readChatMessages } from './messages.js';
import { readChatTools, readToolChoice } from './tools.js';
import { gatewayTarget, startGateway, type GatewayRun } from '../gateway/gateway.js';


/** One chat completion, running in the execution engine. */
export interface ChatRun {
  run: GatewayRun;
  includeUsage: boolean;
}

/** Parameters we cannot honour are refused by name rather than silently ignored. */
function refuseUnsupported(body: ChatCompletionRequest): void {
  if (typeof body.n === 'number' && body.n !== 1) throw unsupported('n', 'Only one choice per request is supported (`n` must be 1).');
}

/**
 * Starts a chat completion as an execution of the agent, through the same engine as
 * `POST /api/agents/{id}/execute`: same context (instructions, memories, files), credits, storage
 * and webhooks. The client's tools are offered to the model; its calls to them come back as
 * `tool_calls`. Validation errors come before anything runs.
 */
export async function startChat(p: TransportDeps, principal: Principal, body: ChatCompletionRequest, opts: { fixedAgentId?: string; providers: ProviderModelSource }): Promise<ChatRun> {
  refuseUnsupported(body);
  const tools = readChatTools(body.tools);
  const toolChoice = readToolChoice(body.tool_choice, tools);
  const conversation = readChatMessages(body.messages);
  const target = await gatewayTarget(p, principal.userId, body.model, opts.fixedAgentId, opts.providers);
  const max = body.max_completion_tokens ?? body.max_tokens;
  const run = await startGateway(p, principal, target, {
    ...conversation,
    param: 'messages',
    tools,
    ...(toolChoice !== undefined ? { toolChoice } : {}),
    ...(typeof body.parallel_tool_calls === 'boolean' ? { parallelToolCalls: body.parallel_tool_calls } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof max === 'number' ? { maxTokens: max } : {}),
    ...(body.stop !== undefined && body.stop !== null ? { stop: (Array.isArray(body.stop) ? body.stop : [body.stop]).filter((s) => s !== '') } : {}),
    ...(body.answers ? { answers: body.answers } : {}),
    ...(body.file_ids ? { fileIds: body.file_ids } : {}),
  });
  return { run, includeUsage: body.stream_options?.include_usage === true };
}
