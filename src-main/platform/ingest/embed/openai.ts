import { type Embedder, EmbedderError, normalize } from './types.js';
import { noTrailingSlash } from '../../kernel/trim.js';

export interface OpenAIEmbedderOptions {
  /** Base URL ending in /v1 (OpenAI, Ollama's /v1, LM Studio, llama.cpp server...). */
  baseUrl: string;
  model: string;
  apiKey?: string | null;
  /** Per-request ceiling: a server that hangs must not stall the embedding queue forever. */
  timeoutMs?: number;
}

/** An OpenAI-compatible `POST /v1/embeddings`. */
export class OpenAIEmbedder implements Embedder {
  readonly key: string;
  private size = 0;

  constructor(private readonly opts: OpenAIEmbedderOptions) {
    this.key = `openai:${noTrailingSlash(opts.baseUrl)}:${opts.model}`;
  }

  dims(): number {
    return this.size;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (!texts.length) return [];
    const url = `${noTrailingSlash(this.opts.baseUrl)}/embeddings`;
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 60_000);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.opts.model, input: texts }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new EmbedderError(`Could not reach the embedding server at ${new URL(url).origin} (${(err as Error).message}).`, 'embedder_unreachable');
    }
    const text = await res.text();
    if (!res.ok) throw new EmbedderError(`The embedding server answered ${res.status}: ${text.slice(0, 300)}`, 'embedder_failed');
    let data: { index?: number; embedding?: unknown }[];
    try {
      data = (JSON.parse(text) as { data: typeof data }).data;
    } catch {
      throw new EmbedderError('The embedding server did not answer JSON.', 'embedder_failed');
    }
    if (!Array.isArray(data) || data.length !== texts.length) throw new EmbedderError(`The embedding server returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${texts.length} texts.`, 'embedder_failed');
    const sorted = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return sorted.map((d) => {
      const e = d.embedding;
      if (!Array.isArray(e) || !e.length || !e.every((x) => typeof x === 'number')) throw new EmbedderError('The embedding server returned a vector that is not a list of numbers.', 'embedder_failed');
      if (this.size && e.length !== this.size) throw new EmbedderError(`The embedding server changed its vector size (${this.size} → ${e.length}).`, 'embedder_failed');
      this.size = e.length;
      return normalize(e as number[]);
    });
  }

  async close(): Promise<void> {}
}
