import type { ChatMessage } from './providers/types.js';
import { ProviderError } from './providers/types.js';
import type { ExecutionContext } from '../contract/executions.js';
import type { Turn } from './turn.js';
import { countTokensSync, tokenCounter, tokenizerReady, type Counter } from './tokens.js';
import { passagesPrompt, selectPassages, type PassageSources } from './passages.js';

/** Where context comes from; the platform wires memories and files, tests pass fakes. */
export interface ContextSources extends PassageSources {
  /** `collections`: only memories of these collection ids (ext `memory_collections`); null: all */
  memories(userId: number, text: string, limit: number, collections?: number[] | null): { id: number; memory: string }[] | Promise<{ id: number; memory: string }[]>;
  linkedFileIds(agentId: number): number[];
}

export interface ContextInput {
  userId: number;
  agentId: number;
  instructions: string;
  developer: string | null;
  conversation: Turn[];
  /**
   * The conversation with tool calls, tool results and images (the /v1 gateways'), sent instead of
   * `conversation` when given. It starts with a user turn and holds no system text.
   */
  messages?: ChatMessage[];
  /** retrieval query: the last user message (or a text agent's prompt) */
  query: string;
  fileIds: number[];
  /** ext `memory_collections`: only these collections' memories enter the context */
  memoryCollections?: number[] | null;
  contextWindow: number;
  /** tokens kept free for the answer */
  reserveOutput: number;
  model: string;
}

export interface BuiltContext {
  messages: ChatMessage[];
  used: ExecutionContext;
  /** estimated prompt tokens (the provider's own count replaces it when reported); may be counted on first read */
  readonly inputTokens: number;
}

const MESSAGE_OVERHEAD = 4;
/** What an image is budgeted at (providers charge from ~85 to ~1,600 tokens by size and detail). */
export const IMAGE_TOKENS = 1000;

const messageChars = (m: ChatMessage) => m.content.length + (m.toolCalls ?? []).reduce((n, c) => n + c.name.length + c.arguments.length, 0);

/** The most a text can cost: a token covers at least one UTF-8 byte. */
const atMost: Counter = (text) => Buffer.byteLength(text, 'utf8');

/**
 * The model's context: the agent's instructions (and the developer message), the caller's most
 * relevant memories and the best passages of the agent's linked files and attached files, each
 * within a token budget, then as much of the conversation as fits (newest turns kept).
 */
export async function buildContext(input: ContextInput, sources: ContextSources): Promise<BuiltContext> {
  const available = Math.max(256, input.contextWindow - input.reserveOutput);
  const memoryBudget = Math.min(2000, Math.floor(available * 0.1));
  const passageBudget = Math.min(8000, Math.floor(available * 0.25));
  const turns: ChatMessage[] = input.messages ?? input.conversation.map((t) => ({ role: t.role, content: t.content }));
  const found = input.query ? await sources.memories(input.userId, input.query, 20, input.memoryCollections ?? null) : [];
  const linked = sources.linkedFileIds(input.agentId);
  const plan: Plan = { input, turns, found, available, memoryBudget };

  // No files to weigh, and every memory and turn fits at the most it can cost: exact counts would
  // keep the same, so none is made before the model is called (each costs the event loop a BPE
  // pass). The prompt's tokens are counted once, only if the provider does not report them.
  if (!input.fileIds.length && !linked.length) {
    const whole = assemble(plan, atMost, [], true);
    if (whole) return whole;
  }

  // A token covers at least one UTF-8 byte (at most 4 per char), so a prompt that small fits
  // whatever the tokenizer would say: no need to wait for it to load.
  const totalChars = input.instructions.length + (input.developer?.length ?? 0) + turns.reduce((n, t) => n + messageChars(t), 0);
  const exact = tokenizerReady() || (totalChars + 2000) * 4 + memoryBudget + passageBudget > available;
  const count: Counter = exact ? await tokenCounter() : countTokensSync;
  const passages = await selectPassages({ attached: input.fileIds, linked, query: input.query, budget: passageBudget }, sources, count);
  return assemble(plan, count, passages, false)!;
}

interface Plan {
  input: ContextInput;
  turns: ChatMessage[];
  found: { id: number; memory: string }[];
  available: number;
  memoryBudget: number;
}

/**
 * Memories within their budget, the system text, then the newest turns that fit, counted with
 * `count`. With `whole`, null as soon as anything would be left out (the caller counts exactly
 * then); the prompt's tokens are then counted on first read, with the tokenizer.
 */
function assemble(plan: Plan, count: Counter, passages: ExecutionContext['passages'], whole: boolean): BuiltContext | null {
  const { input, turns, available } = plan;
  const used: ExecutionContext = { memories: [], passages };
  let memTokens = 0;
  for (const m of plan.found) {
    const t = count(m.memory) + 2;
    if (memTokens + t > plan.memoryBudget) {
      if (whole) return null;
      continue;
    }
    memTokens += t;
    used.memories.push({ id: m.id, memory: m.memory });
  }

  const system: string[] = [];
  if (input.instructions.trim()) system.push(input.instructions.trim());
  if (input.developer?.trim()) system.push(input.developer.trim());
  if (used.memories.length) {
    system.push(`What you know about the user (their saved memories; use them when relevant):\n${used.memories.map((m) => `- ${m.memory}`).join('\n')}`);
  }
  if (used.passages.length) system.push(passagesPrompt(used.passages));
  const systemText = system.join('\n\n');
  const promptTokens = (n: Counter, kept: ChatMessage[]) => (systemText ? n(systemText) + MESSAGE_OVERHEAD : 0) + kept.reduce((sum, m) => sum + tokensOf(n, m), 0);
  let budget = available - (systemText ? count(systemText) + MESSAGE_OVERHEAD : 0);

  // Newest turns first until the budget is spent; the last user message must fit.
  const kept: ChatMessage[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = tokensOf(count, turns[i]);
    if (t > budget) {
      if (whole) return null;
      if (i === turns.length - 1) {
        throw new ProviderError(
          `The message is too long for the context window of ${input.model} (${input.contextWindow} tokens, ${input.reserveOutput} kept for the answer). Shorten it or pick a model with a larger window.`,
          'context_too_long',
        );
      }
      break;
    }
    budget -= t;
    kept.unshift(turns[i]);
  }
  // A conversation cut to fit starts again at a user turn (a tool result never leads without its
  // call). One that fits whole is sent as the client wrote it, even with no user turn at all (a
  // tool call and its result alone, as OpenAI's API accepts).
  if (kept.length < turns.length) while (kept.length && kept[0].role !== 'user') kept.shift();
  if (!kept.length && turns.length) {
    throw new ProviderError(`The conversation's last turns do not fit the context window of ${input.model} (${input.contextWindow} tokens). Shorten them or pick a model with a larger window.`, 'context_too_long');
  }

  const messages: ChatMessage[] = [];
  if (systemText) messages.push({ role: 'system', content: systemText });
  for (const t of kept) messages.push(t);
  if (!whole) return { messages, used, inputTokens: available - budget };
  let counted: number | undefined;
  return {
    messages,
    used,
    get inputTokens() {
      return (counted ??= promptTokens(countTokensSync, kept));
    },
  };
}

const tokensOf = (count: Counter, m: ChatMessage) =>
  count(m.content) + MESSAGE_OVERHEAD + (m.toolCalls ?? []).reduce((n, c) => n + count(c.name) + count(c.arguments) + MESSAGE_OVERHEAD, 0) + (m.images?.length ?? 0) * IMAGE_TOKENS;
