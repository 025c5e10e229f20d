import type { ChatMessage, GenerateRequest, ImageRequest, ImageResult, ImageSupport, ModelProvider, ProviderEvent, ToolCall, ToolChoice } from './types.js';
import { ProviderError } from './types.js';
import { httpFailure, request, sseBatches, streamEvent, streamRequest } from './http.js';
import { StreamGuard, type StreamLimits } from './stream-limits.js';
import { noTrailingSlash } from '../../kernel/trim.js';

export interface OpenAICompatibleOptions {
  id: string;
  /** Base URL up to and including `/v1` (e.g. `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  apiKey?: string;
  /** Human name for messages ("OpenAI", "Ollama"...). */
  label?: string;
  idleTimeoutMs?: number;
  /** deadline, idle and byte caps of each stream (stream-limits.ts) */
  limits?: StreamLimits;
  /** Ask for a usage chunk at the end of a stream (`stream_options.include_usage`). */
  streamUsage?: boolean;
  contextWindows?: Record<string, number>;
  /** The user's setting for every model of this provider. */
  defaultContextWindow?: number;
}

/** Messages in the OpenAI chat format, tool calls included. */
export function toOpenAIMessages(messages: ChatMessage[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      return { role: 'assistant', content: m.content || null, tool_calls: m.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })) };
    }
    if (m.images?.length && m.role === 'user') {
      const parts: unknown[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const img of m.images) parts.push({ type: 'image_url', image_url: img.detail ? { url: img.url, detail: img.detail } : { url: img.url } });
      return { role: 'user', content: parts };
    }
    return { role: m.role, content: m.content };
  });
}

/** OpenAI's `tool_choice` for the engine's. */
export function openAIToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** Model families known to read no images (chat models of other families are given them). */
const TEXT_ONLY = /^(gpt-3\.5|gpt-4-(0314|0613|32k)|gpt-4$|o1-mini|o3-mini|text-|davinci|babbage|deepseek-(chat|reasoner|coder)|codestral)/i;

/**
 * OpenAI-compatible chat completions over fetch + eventsource-parser: OpenAI, OpenRouter,
 * Ollama, LM Studio, llama.cpp server, vLLM. Written directly (not through an SDK) so that the
 * first byte and the throughput are the upstream's own.
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly id: string;
  private readonly base: string;
  private readonly label: string;

  constructor(private readonly opts: OpenAICompatibleOptions) {
    this.id = opts.id;
    this.base = noTrailingSlash(opts.baseUrl);
    this.label = opts.label ?? `the model provider "${opts.id}"`;
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
    if (this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  contextWindow(model: string): number | undefined {
    return this.opts.contextWindows?.[model] ?? this.opts.defaultContextWindow;
  }

  /** OpenAI and most compatible servers read image parts; Ollama's compatible API takes only base64 data. */
  imageSupport(model: string): ImageSupport {
    if (TEXT_ONLY.test(model)) return 'none';
    return this.id === 'ollama' || /:11434\b/.test(this.base) ? 'data' : 'url';
  }

  stream(req: GenerateRequest): AsyncIterable<ProviderEvent> {
    const guard = new StreamGuard(this.label, req.signal, this.opts.limits, { fallbackIdleMs: this.opts.idleTimeoutMs });
    return guard.watch(this.read({ ...req, signal: guard.signal }, guard));
  }

  private async *read(req: GenerateRequest, guard: StreamGuard): AsyncIterable<ProviderEvent> {
    const body: Record<string, unknown> = { model: req.model, messages: toOpenAIMessages(req.messages), stream: true };
    if (this.opts.streamUsage !== false) body.stream_options = { include_usage: true };
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.maxTokens !== undefined) body.max_tokens = req.maxTokens;
    if (req.topP !== undefined) body.top_p = req.topP;
    if (req.stop?.length) body.stop = req.stop;
    if (req.tools?.length) {
      body.tools = req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
      if (req.toolChoice !== undefined) body.tool_choice = openAIToolChoice(req.toolChoice);
      if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
    }
    const res = await streamRequest(`${this.base}/chat/completions`, { headers: this.headers(), body: JSON.stringify(body), signal: req.signal, idleMs: this.opts.idleTimeoutMs }, this.label);
    if (!res.ok) throw await httpFailure(res, this.label);

    const calls = new Map<number, ToolCall>();
    let finished = false;
    for await (const batch of sseBatches(res, guard)) {
      let text = '';
      for (const ev of batch) {
        if (ev.data === '[DONE]') {
          finished = true;
          continue;
        }
        const j = streamEvent<ChatCompletionChunk>(ev.data, this.label);
        if (j.error) {
          if (text) yield { type: 'text', text };
          throw new ProviderError(`${this.label} failed mid-answer: ${j.error.message ?? JSON.stringify(j.error)}`, 'provider_error');
        }
        const choice = j.choices?.[0];
        const delta = choice?.delta;
        if (typeof delta?.content === 'string') text += delta.content;
        // Reasoning text (DeepSeek, Ollama, vLLM) is not kept, but it is the model at work: it counts as progress.
        else if (typeof delta?.reasoning_content === 'string' || typeof delta?.reasoning === 'string') guard.progressed(String(delta.reasoning_content ?? delta.reasoning));
        for (const tc of delta?.tool_calls ?? []) {
          const idx = Number(tc.index ?? 0);
          const cur = calls.get(idx) ?? { id: tc.id ?? `call_${idx}`, name: '', arguments: '' };
          if (tc.id) cur.id = guard.tool(tc.id);
          if (tc.function?.name) cur.name += guard.tool(tc.function.name);
          if (tc.function?.arguments) cur.arguments += guard.tool(tc.function.arguments);
          calls.set(idx, cur);
          guard.toolCalls(calls.size);
        }
        if (choice?.finish_reason) finished = true;
        if (j.usage) {
          if (text) yield { type: 'text', text };
          text = '';
          yield { type: 'usage', inputTokens: Number(j.usage.prompt_tokens ?? 0), outputTokens: Number(j.usage.completion_tokens ?? 0) };
        }
      }
      if (text) yield { type: 'text', text };
    }
    if (!finished) throw new ProviderError(`The connection to ${this.label} closed before the answer was complete.`, 'provider_error');
    if (calls.size) yield { type: 'tool_calls', calls: [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c) };
  }

  async listModels(signal: AbortSignal = AbortSignal.timeout(10_000)): Promise<string[]> {
    const res = await request(`${this.base}/models`, { headers: this.headers(), signal }, this.label);
    if (!res.ok) throw await httpFailure(res, this.label);
    const j = (await res.json()) as { data?: { id: string }[]; models?: { name: string }[] };
    return (j.data ?? []).map((m) => m.id).concat((j.models ?? []).map((m) => m.name));
  }

  async generateImage(req: ImageRequest): Promise<ImageResult> {
    // A server that never answers must not hold the run: image models take a minute or two at most.
    const signal = AbortSignal.any([req.signal, AbortSignal.timeout(IMAGE_TIMEOUT_MS)]);
    const body: Record<string, unknown> = { model: req.model, prompt: req.prompt, n: 1 };
    if (req.size) body.size = req.size;
    // gpt-image-* always answer base64; dall-e needs asking.
    if (!req.model.startsWith('gpt-image')) body.response_format = 'b64_json';
    const res = await request(`${this.base}/images/generations`, { method: 'POST', headers: this.headers(), body: JSON.stringify(body), signal }, this.label);
    if (!res.ok) throw await httpFailure(res, this.label);
    const j = (await res.json()) as { data?: { b64_json?: string; url?: string; revised_prompt?: string }[] };
    const first = j.data?.[0];
    let bytes: Buffer;
    if (first?.b64_json) bytes = Buffer.from(first.b64_json, 'base64');
    else if (first?.url) {
      const img = await request(first.url, { signal }, this.label);
      if (!img.ok) throw await httpFailure(img, this.label);
      bytes = Buffer.from(await img.arrayBuffer());
    } else throw new ProviderError(`${this.label} returned no image.`, 'provider_error');
    return { bytes, mime: sniffImage(bytes), revisedPrompt: first.revised_prompt };
  }
}

/** The whole of one image generation: the request, the answer and the image it links to. */
const IMAGE_TIMEOUT_MS = 5 * 60_000;

export function sniffImage(b: Buffer): string {
  if (b[0] === 0x89 && b[1] === 0x50) return 'image/png';
  if (b[0] === 0xff && b[1] === 0xd8) return 'image/jpeg';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (b.subarray(0, 3).toString('latin1') === 'GIF') return 'image/gif';
  return 'application/octet-stream';
}

/** The fields of an OpenAI-style stream chunk that are read here (anything else is ignored). */
interface ChatCompletionChunk {
  error?: { message?: string };
  choices?: {
    finish_reason?: string | null;
    delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[] };
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}
