/**
 * A client's own tools inside a run (the /v1 gateways: OpenAI function calling, Anthropic tool
 * use). They are offered to the model beside the agent's tools but never run here: a round in
 * which the model calls one ends the run, the calls are recorded as steps of the `client` server,
 * and the gateway hands them back to the client, which runs them and sends the results in its next
 * request. The agent's own tools (MCP, web) keep running inside, as before.
 */
import type { ToolStep } from '../contract/tools.js';
import type { Turn } from './turn.js';
import type { ChatMessage, GenerateRequest, ModelProvider, ToolCall, ToolChoice, ToolSpec } from './providers/types.js';
import { ProviderError } from './providers/types.js';
import { isoMicros, nowMicros } from '../kernel/time.js';

/** The `server` of a client tool's step (its `server_id` is null). */
export const CLIENT_SERVER = 'client';

export interface ClientRequest {
  /** the client's functions (may be empty: the conversation alone is rich) */
  tools: ToolSpec[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  /**
   * The conversation the model sees (tool calls, tool results, images), given the one the
   * executions service built from stored text turns (a continued session's earlier turns).
   */
  conversation?(stored: Turn[]): ChatMessage[];
}

export const isClientStep = (s: Pick<ToolStep, 'server_id' | 'server'>) => s.server_id === null && s.server === CLIENT_SERVER;

/** The rich conversation, once the model is known to read the images it holds; undefined: the stored turns as they are. */
export function clientMessages(client: ClientRequest | undefined, stored: Turn[], provider: ModelProvider, model: string): ChatMessage[] | undefined {
  if (!client?.conversation) return undefined;
  const messages = client.conversation(stored);
  const urls = messages.flatMap((m) => m.images ?? []).map((i) => i.url);
  if (urls.length) {
    const support = provider.imageSupport?.(model) ?? 'none';
    if (support === 'none') {
      throw new ProviderError(`The model ${model} cannot read images. Send the message without images, or pick a model that reads them.`, 'image_unsupported');
    }
    if (support === 'data' && urls.some((u) => !u.startsWith('data:'))) {
      throw new ProviderError(`The model ${model} reads images only as data URLs (data:image/png;base64,...), not by http(s) address.`, 'image_unsupported');
    }
  }
  return messages;
}

/** The client's tools to offer: none under `tool_choice: none`; a name the agent's own tools use stays theirs. */
export function clientToolSpecs(client: ClientRequest | undefined, own: ToolSpec[]): ToolSpec[] {
  if (!client?.tools.length || client.toolChoice === 'none') return [];
  const taken = new Set(own.map((t) => t.name));
  return client.tools.filter((t) => !taken.has(t.name));
}

/** The choice a round sends with its tools: the client's, while its tools are offered. */
export function clientChoice(client: ClientRequest | undefined, offered: ToolSpec[] | undefined): Pick<GenerateRequest, 'toolChoice' | 'parallelToolCalls'> {
  if (!client || !offered?.length || client.toolChoice === 'none') return {};
  const out: Pick<GenerateRequest, 'toolChoice' | 'parallelToolCalls'> = {};
  if (client.toolChoice !== undefined) out.toolChoice = client.toolChoice;
  if (client.parallelToolCalls !== undefined) out.parallelToolCalls = client.parallelToolCalls;
  return out;
}

/**
 * After a round: when the model called one of the client's tools that were offered (`offered`,
 * from clientToolSpecs: none under `tool_choice: none`, never a name the agent's own tools hold),
 * records those calls as steps (ids from `firstStepId`) and returns true; the run ends there,
 * with the text so far as its output. The agent's own calls of that round are not run (the model
 * can ask again next turn); a call to any other name goes to the tool loop, which refuses it.
 */
export function handBack(offered: ToolSpec[], calls: ToolCall[], firstStepId: number, step: (s: ToolStep) => void): boolean {
  const names = new Set(offered.map((t) => t.name));
  const mine = calls.filter((c) => names.has(c.name));
  if (!mine.length) return false;
  const started = isoMicros(nowMicros());
  mine.forEach((c, i) => {
    let args: unknown = c.arguments;
    try {
      args = JSON.parse(c.arguments || '{}');
    } catch {}
    step({
      id: firstStepId + i,
      type: 'tool_call',
      server_id: null,
      server: CLIENT_SERVER,
      tool: c.name,
      arguments: args,
      result: 'Sent back to the calling app to run.',
      error: null,
      status: 'succeeded',
      approved: null,
      started_at: started,
      duration_ms: 0,
    });
  });
  return true;
}
