import { EmbedderError } from '../../ingest/embed/types.js';
import { loadGgufModel } from '../../ingest/embed/gguf.js';

type Llama = import('node-llama-cpp').Llama;
type RankingContext = import('node-llama-cpp').LlamaRankingContext;

/** Scores documents against a query (higher: more relevant), one score per document, in order. */
export interface Reranker {
  readonly key: string;
  rank(query: string, documents: string[]): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * A GGUF cross-encoder (e.g. bge-reranker-v2-m3) run by node-llama-cpp's ranking context: it
 * reads the query and each candidate together, which orders the few best candidates of hybrid
 * search more precisely than comparing separate vectors. Loaded on first use.
 */
export class GgufReranker implements Reranker {
  readonly key: string;
  private context: Promise<RankingContext> | null = null;
  private llama: Llama | null = null;

  constructor(
    private readonly folders: () => string[],
    private readonly model: string,
  ) {
    this.key = `gguf-rank:${model}`;
  }

  private open(): Promise<RankingContext> {
    this.context ??= (async () => {
      const { llama, model } = await loadGgufModel(this.folders(), this.model);
      this.llama = llama;
      try {
        return await model.createRankingContext();
      } catch (err) {
        await model.dispose();
        throw new EmbedderError(`${this.model} cannot rank: ${(err as Error).message}`, 'embedder_unavailable');
      }
    })();
    this.context.catch(() => (this.context = null));
    return this.context;
  }

  async rank(query: string, documents: string[]): Promise<number[]> {
    const ctx = await this.open();
    return ctx.rankAll(query, documents);
  }

  async close(): Promise<void> {
    const ctx = this.context;
    this.context = null;
    if (ctx) await (await ctx.catch(() => null))?.dispose();
  }
}
