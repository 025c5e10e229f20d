import type { ChatCompletion, ChatCompletionChunk, FinishReason, Usage } from '../../contract/openai.js';

/** The completion id carries the execution id, so `GET /api/agent-responses/{id}` finds it. */
export const completionId = (executionId: number) => `chatcmpl-${executionId}`;

export interface CompletionMeta {
  executionId: number;
  /** Unix seconds. */
  created: number;
  /** The `model` the client asked for, echoed as OpenAI does. */
  model: string;
}

export const usageOf = (inputTokens: number, outputTokens: number): Usage => ({
  prompt_tokens: inputTokens,
  completion_tokens: outputTokens,
  total_tokens: inputTokens + outputTokens,
});

/** A call to one of the client's functions as OpenAI writes it. */
export interface FunctionCall {
  id: string;
  name: string;
  arguments: string;
}

export const toolCallOf = (c: FunctionCall) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } });

/** With calls to the client's tools, `content` is null when there is no text, as OpenAI answers. */
export function completion(meta: CompletionMeta, content: string, finish: FinishReason, usage: Usage, calls: FunctionCall[] = []): ChatCompletion {
  const message: ChatCompletion['choices'][number]['message'] = calls.length
    ? { role: 'assistant', content: content || null, refusal: null, tool_calls: calls.map(toolCallOf) }
    : { role: 'assistant', content, refusal: null };
  return {
    id: completionId(meta.executionId),
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
    usage,
  };
}

/**
 * The deltas of one call as OpenAI streams them: the first with index, id, type and the name (and
 * empty arguments), then the arguments in fragments.
 */
export function toolCallDeltas(calls: FunctionCall[], fragment = 256): Delta[] {
  const out: Delta[] = [];
  calls.forEach((c, index) => {
    out.push({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
    for (let i = 0; i < c.arguments.length; i += fragment) out.push({ tool_calls: [{ index, function: { arguments: c.arguments.slice(i, i + fragment) } }] });
  });
  return out;
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];

/** One `chat.completion.chunk`; with `include_usage`, every chunk carries `usage: null` until the last. */
export function chunk(meta: CompletionMeta, delta: Delta, finish: FinishReason | null, withUsage: boolean): ChatCompletionChunk {
  const c: ChatCompletionChunk = {
    id: completionId(meta.executionId),
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  };
  if (withUsage) c.usage = null;
  return c;
}

/** The last chunk of a stream asked for `include_usage`: no choices, the whole usage. */
export function usageChunk(meta: CompletionMeta, usage: Usage): ChatCompletionChunk {
  return { id: completionId(meta.executionId), object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [], usage };
}

/** One SSE frame, as OpenAI writes them. */
export const sseData = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
export const SSE_DONE = 'data: [DONE]\n\n';
