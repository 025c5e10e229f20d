import { type Embedder, EmbedderError, abortReason, normalize } from './types.js';
import { ggufFileFor } from '../../engine/providers/gguf.js';

type Llama = import('node-llama-cpp').Llama;
type EmbeddingContext = import('node-llama-cpp').LlamaEmbeddingContext;

/**
 * Finds a GGUF file by name in the models folders and loads it on the CPU with node-llama-cpp, for
 * the search models (embedders, rerankers); each failure is an EmbedderError saying what to do.
 */
export async function loadGgufModel(folders: string[], name: string): Promise<{ llama: Llama; model: import('node-llama-cpp').LlamaModel }> {
  const file = folders.map((dir) => ggufFileFor(dir, name)).find((f) => f !== null);
  if (!file) throw new EmbedderError(`No GGUF file named "${name}" in ${folders.join(' or ')}.`, 'embedder_unavailable');
  let mod: typeof import('node-llama-cpp');
  try {
    mod = await import('node-llama-cpp');
  } catch (err) {
    throw new EmbedderError(`The local GGUF engine (node-llama-cpp) cannot load here: ${(err as Error).message}`, 'embedder_unavailable');
  }
  const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: mod.LlamaLogLevel.error });
  return { llama, model: await llama.loadModel({ modelPath: file }) };
}

/**
 * A GGUF embedding model (e.g. nomic-embed-text, bge-small) from a models folder, run by
 * node-llama-cpp in-process on its own threads (native code: the event loop is not blocked).
 * Texts are embedded one after another, as the embedding context serves one at a time.
 */
export class GgufEmbedder implements Embedder {
  readonly key: string;
  private size = 0;
  private context: Promise<EmbeddingContext> | null = null;
  private llama: Llama | null = null;

  constructor(
    private readonly folders: () => string[],
    private readonly model: string,
  ) {
    this.key = `gguf:${model}`;
  }

  dims(): number {
    return this.size;
  }

  private open(): Promise<EmbeddingContext> {
    this.context ??= (async () => {
      const { llama, model } = await loadGgufModel(this.folders(), this.model);
      this.llama = llama;
      return model.createEmbeddingContext();
    })();
    this.context.catch(() => (this.context = null));
    return this.context;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const ctx = await this.open();
    const out: Float32Array[] = [];
    for (const t of texts) {
      // One text at a time: a caller that left stops the rest.
      if (signal?.aborted) throw abortReason(signal);
      const e = await ctx.getEmbeddingFor(t);
      this.size = e.vector.length;
      out.push(normalize(e.vector));
    }
    return out;
  }

  async close(): Promise<void> {
    const ctx = this.context;
    this.context = null;
    if (ctx) await (await ctx.catch(() => null))?.dispose();
  }
}
