/**
 * One streaming interface for every model provider (OpenAI-compatible, Anthropic, Ollama,
 * in-process GGUF, and the remote platform): text deltas, token usage, tool calls,
 * cancellation through the request's AbortSignal.
 */

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments, as the model wrote it. */
  arguments: string;
}

/** An image a user turn carries: a `data:image/...;base64,` URL, or an http(s) URL where the provider fetches it. */
export interface ImageInput {
  url: string;
  /** OpenAI's `detail` (`auto`, `low`, `high`), passed through where the provider has it. */
  detail?: string;
}

/** What a provider's model takes as images: none, data URLs only, or data and http(s) URLs. */
export type ImageSupport = 'none' | 'data' | 'url';

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** assistant turns that called tools */
  toolCalls?: ToolCall[];
  /** tool turns: which call this answers */
  toolCallId?: string;
  /** user turns (and tool results, where the provider has it): images after the text */
  images?: ImageInput[];
}

/** Which tool the model must call: OpenAI's `tool_choice` with the function named by `name`. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** A function the model may call (OpenAI tools format). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface GenerateRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /** nucleus sampling (a conversation's own option); providers without it ignore it */
  topP?: number;
  stop?: string[];
  tools?: ToolSpec[];
  /** with `tools`: whether and which tool the model must call (default `auto`) */
  toolChoice?: ToolChoice;
  /** with `tools`: false asks for at most one call per turn */
  parallelToolCalls?: boolean;
  signal: AbortSignal;
}

export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'usage'; inputTokens: number; outputTokens: number }
  | { type: 'tool_calls'; calls: ToolCall[] };

export interface ImageRequest {
  model: string;
  prompt: string;
  size?: string;
  signal: AbortSignal;
}

export interface ImageResult {
  bytes: Buffer;
  mime: string;
  revisedPrompt?: string;
}

export interface ModelProvider {
  /** Stable id of the configured provider (e.g. `openai`, `anthropic`, `ollama`, `local`, `remote`). */
  readonly id: string;
  /** Streams the answer; throws ProviderError (or AbortError when the signal fires). */
  stream(req: GenerateRequest): AsyncIterable<ProviderEvent>;
  /** Models it serves (for Settings → Providers → Test). */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  /** Image generation, where the provider has it. */
  generateImage?(req: ImageRequest): Promise<ImageResult>;
  /** Context window in tokens for a model, when known. */
  contextWindow?(model: string): number | undefined;
  /** Which images the model reads in user turns (none when not implemented). */
  imageSupport?(model: string): ImageSupport;
}

/** A provider failure with a stable code, shown to the user as the execution's error. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly code: string = 'provider_error',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export function isAbort(err: unknown): boolean {
  return (err as Error)?.name === 'AbortError' || (err as { code?: string })?.code === 'ABORT_ERR';
}
