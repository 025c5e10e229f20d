import type { ChatCompletion, ChatCompletionChunk, FinishReason, Usage } from '../../contract/openai.js';

/** The completion id carries the execution id, so `GET /api/agent-responses/{id}` finds it. */
export const completionId = (executionId: number) => `chatcmpl-${executionId}`;
export const EXECUTION_HEADER = 'x-agent-desk-execution-id';

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

export function completion(meta: CompletionMeta, content: string, finish: FinishReason, usage: Usage): ChatCompletion {
  return {
    id: completionId(meta.executionId),
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: finish }],
    usage,
  };
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
