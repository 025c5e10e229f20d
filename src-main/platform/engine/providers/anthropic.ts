import type { ChatMessage, GenerateRequest, ImageInput, ImageSupport, ModelProvider, ProviderEvent, ToolCall, ToolChoice } from './types.js';
import { ProviderError } from './types.js';
import { httpFailure, request, sseBatches, streamEvent, streamRequest } from './http.js';
import { StreamGuard, type StreamLimits } from './stream-limits.js';
import { PROVIDER_URLS } from '../../contract/provider-urls.js';
import { noTrailingSlash } from '../../kernel/trim.js';

export interface AnthropicOptions {
  id?: string;
  apiKey: string;
  /** Default https://api.anthropic.com (without /v1). */
  baseUrl?: string;
  idleTimeoutMs?: number;
  /** deadline, idle and byte caps of each stream (stream-limits.ts) */
  limits?: StreamLimits;
  /** Anthropic requires max_tokens; used when the call sets none. */
  defaultMaxTokens?: number;
}

type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } };
type Block =
  | { type: 'text'; text: string }
  | ImageBlock
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | ({ type: 'text'; text: string } | ImageBlock)[] };

/** An image as Anthropic takes it: base64 from a data URL, else by URL. */
export function anthropicImage(img: ImageInput): ImageBlock {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(img.url);
  return m ? { type: 'image', source: { type: 'base64', media_type: m[1], data: m[2] } } : { type: 'image', source: { type: 'url', url: img.url } };
}

/** Anthropic's `tool_choice` for the engine's (`none` included; `parallel: false` disables parallel tool use). */
export function anthropicToolChoice(choice: ToolChoice | undefined, parallel: boolean | undefined): Record<string, unknown> | undefined {
  if (choice === undefined && parallel !== false) return undefined;
  const c = choice ?? 'auto';
  const out: Record<string, unknown> = c === 'required' ? { type: 'any' } : typeof c === 'string' ? { type: c } : { type: 'tool', name: c.name };
  if (parallel === false && c !== 'none') out.disable_parallel_tool_use = true;
  return out;
}

/** System text goes apart; turns become content blocks; consecutive same-role turns merge (the API wants alternation). */
export function toAnthropic(messages: ChatMessage[]): { system: string; messages: { role: 'user' | 'assistant'; content: Block[] }[] } {
  const system: string[] = [];
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  for (const m of messages) {
    if (m.role === 'system') {
      system.push(m.content);
      continue;
    }
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks: Block[] = [];
    if (m.role === 'tool') {
      const content = m.images?.length ? [...(m.content ? [{ type: 'text' as const, text: m.content }] : []), ...m.images.map(anthropicImage)] : m.content;
      blocks.push({ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content });
    } else if (m.content) blocks.push({ type: 'text', text: m.content });
    if (m.role === 'user') for (const img of m.images ?? []) blocks.push(anthropicImage(img));
    for (const t of m.toolCalls ?? []) {
      let input: unknown = {};
      try {
        input = JSON.parse(t.arguments || '{}');
      } catch {}
      blocks.push({ type: 'tool_use', id: t.id, name: t.name, input });
    }
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return { system: system.join('\n\n'), messages: out };
}

/** Anthropic's Messages API with its own SSE event sequence. */
export class AnthropicProvider implements ModelProvider {
  readonly id: string;
  private readonly base: string;
  private readonly label = 'Anthropic';

  constructor(private readonly opts: AnthropicOptions) {
    this.id = opts.id ?? 'anthropic';
    this.base = noTrailingSlash(opts.baseUrl ?? PROVIDER_URLS.anthropic).replace(/\/v1$/, '');
  }

  private headers(): Record<string, string> {
    return { 'content-type': 'application/json', 'x-api-key': this.opts.apiKey, 'anthropic-version': '2023-06-01' };
  }

  contextWindow(): number {
    return 200_000;
  }

  /** Claude 3 and later read images, as base64 or by URL; the older models read none. */
  imageSupport(model: string): ImageSupport {
    return /^claude-(2|instant)/i.test(model) ? 'none' : 'url';
  }

  stream(req: GenerateRequest): AsyncIterable<ProviderEvent> {
    const guard = new StreamGuard(this.label, req.signal, this.opts.limits, { fallbackIdleMs: this.opts.idleTimeoutMs });
    return guard.watch(this.read({ ...req, signal: guard.signal }, guard));
  }

  private async *read(req: GenerateRequest, guard: StreamGuard): AsyncIterable<ProviderEvent> {
    const { system, messages } = toAnthropic(req.messages);
    const body: Record<string, unknown> = { model: req.model, messages, max_tokens: req.maxTokens ?? this.opts.defaultMaxTokens ?? 8192, stream: true };
    if (system) body.system = system;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    if (req.topP !== undefined) body.top_p = req.topP;
    if (req.stop?.length) body.stop_sequences = req.stop;
    if (req.tools?.length) {
      body.tools = req.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
      const choice = anthropicToolChoice(req.toolChoice, req.parallelToolCalls);
      if (choice) body.tool_choice = choice;
    }
    const res = await streamRequest(`${this.base}/v1/messages`, { headers: this.headers(), body: JSON.stringify(body), signal: req.signal, idleMs: this.opts.idleTimeoutMs }, this.label);
    if (!res.ok) throw await httpFailure(res, this.label);

    let input = 0;
    let output = 0;
    let stopped = false;
    const tools = new Map<number, ToolCall>();
    for await (const batch of sseBatches(res, guard)) {
      let text = '';
      for (const ev of batch) {
        const j = streamEvent<AnthropicStreamEvent>(ev.data, this.label);
        switch (j.type) {
          case 'message_start':
            input = Number(j.message?.usage?.input_tokens ?? 0);
            output = Number(j.message?.usage?.output_tokens ?? 0);
            break;
          case 'content_block_start':
            if (j.content_block?.type === 'tool_use') {
              tools.set(j.index ?? 0, { id: guard.tool(j.content_block.id ?? ''), name: guard.tool(j.content_block.name ?? ''), arguments: '' });
              guard.toolCalls(tools.size);
            }
            break;
          case 'content_block_delta':
            if (j.delta?.type === 'text_delta') text += j.delta.text ?? '';
            else if (j.delta?.type === 'input_json_delta') {
              const t = tools.get(j.index ?? 0);
              if (t) t.arguments += guard.tool(j.delta.partial_json ?? '');
            }
            break;
          case 'message_delta':
            if (j.usage?.output_tokens !== undefined) output = Number(j.usage.output_tokens);
            break;
          case 'message_stop':
            stopped = true;
            break;
          case 'error':
            // The text that came before the error is part of the answer so far.
            if (text) yield { type: 'text', text };
            throw new ProviderError(`${this.label} failed mid-answer: ${j.error?.message ?? 'unknown error'} (${j.error?.type ?? 'error'})`, 'provider_error');
        }
      }
      if (text) yield { type: 'text', text };
    }
    if (!stopped) throw new ProviderError(`The connection to ${this.label} closed before the answer was complete.`, 'provider_error');
    yield { type: 'usage', inputTokens: input, outputTokens: output };
    if (tools.size) yield { type: 'tool_calls', calls: [...tools.values()].map((t) => ({ ...t, arguments: t.arguments || '{}' })) };
  }

  async listModels(signal: AbortSignal = AbortSignal.timeout(10_000)): Promise<string[]> {
    const res = await request(`${this.base}/v1/models`, { headers: this.headers(), signal }, this.label);
    if (!res.ok) throw await httpFailure(res, this.label);
    const j = (await res.json()) as { data?: { id: string }[] };
    return (j.data ?? []).map((m) => m.id);
  }
}

/** The fields of Anthropic's stream events that are read here (anything else is ignored). */
interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string };
  usage?: { output_tokens?: number };
  error?: { message?: string; type?: string };
}
