import path from 'node:path';
import type { ServiceContext } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import type { SecretBox } from '../../kernel/secrets.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import { ValidationError } from '../../kernel/errors.js';
import type { Embedder } from '../../ingest/embed/types.js';
import type { EmbeddingSettings, EmbeddingSettingsUpdate, PassageScores } from '../../contract/retrieval.js';
import { searchPassages as bm25Passages } from '../files/search.js';
import { RetrievalStore, loadVectorFunctions } from './store.js';
import type { ExecutionRetrieval } from './port.js';
import { fuseScores } from './fusion.js';
import { BUILTIN_MODEL, DEFAULT_CHOICE, embedderFor, type EmbedderChoice } from './embedders.js';
import { nextTurn } from '../../kernel/turns.js';
import { deferHeapRelease } from '../../kernel/young-heap.js';
import { keepSecretOnlyWhereEntered } from '../../kernel/kept-secret.js';
import { say } from '../../contract/messages.js';
import { GgufReranker, type Reranker } from './reranker.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'retrieval.embedder': EmbedderChoice;
    'retrieval.ready_space': string | null;
    'retrieval.reranker': string | null;
  }
}


export interface RankedPassage {
  passage_id: number;
  file_id: number;
  filename: string;
  ordinal: number;
  text: string;
  scores: PassageScores;
}

/** What memory search needs of the memories module (bm25 over the user's memories, and which collections a run searches). */
export interface MemoryKeywordSearch {
  relevant(userId: number, text: string, limit: number, collections?: number[] | null): { id: number; memory: string; rank: number }[];
  contextCollections(userId: number, named: number[] | null): number[];
}

const CHOICE_KEY = 'retrieval.embedder';
const READY_KEY = 'retrieval.ready_space';
const RERANKER_KEY = 'retrieval.reranker';
/** How many of the best fused candidates the reranker reorders (a cross-encoder reads each with the query). */
const RERANK_POOL = 20;
/** How many candidates each method contributes to the fusion. */
const POOL = 50;
const BATCH = 32;
const RETRY_MS = 30_000;
const QUERY_TIMEOUT_MS = 10_000;
/** Query vectors kept (2 KB each at 512 dims). */
const QUERY_CACHE = 64;
/** Queries embedded in one call at most (the built-in embedder's process runs them 4 to a batch). */
const QUERY_BATCH = 16;

/**
 * Hybrid retrieval: bm25 (FTS5) and vector search over the same passages and memories, fused by
 * their normalized scores (fusion.ts). Vectors are filled in the background by the chosen
 * embedder; until its space is complete, search is bm25 alone, so switching embedders never
 * leaves a moment where search fails. An embedder that fails (server down) is retried later
 * and never fails a search.
 */
export class RetrievalService {
  readonly store: RetrievalStore;
  private choice: EmbedderChoice;
  private embedder: Embedder;
  private reranker: Reranker | null;
  private draining: Promise<void> | null = null;
  private again = false;
  private lastError: string | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Query vectors by exact text (and embedder), the least recently used let go first. */
  private readonly queryCache = new Map<string, Float32Array>();
  /** Query vectors being embedded now: runs that ask for the same text at once share one embedding. */
  private readonly queryInFlight = new Map<string, Promise<Float32Array | null>>();
  /**
   * Queries waiting while another call of queries runs: they go together in the next call (one
   * batch costs the built-in model less than its texts one by one: ~2.6 ms a short text in fours
   * against ~6 ms alone).
   */
  private readonly queryQueue: { embedder: Embedder; text: string; resolve(v: Float32Array): void; reject(e: Error): void }[] = [];
  private queryCall = false;
  private readonly files = new Set<number>();
  /** Where GGUF embedding models are looked for (the same folders as GGUF chat models). */
  private readonly ggufFolders: () => string[];
  /** Whether sqlite-vec's native functions are loaded (else a JS twin of the one function used). */
  readonly nativeVectors: boolean;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly settings: SettingsService,
    private readonly secrets: SecretBox,
    private readonly memories: MemoryKeywordSearch,
    lifecycle: Lifecycle,
    opts: { embedder?: Embedder; ggufFolders?: () => string[] } = {},
  ) {
    this.ggufFolders = opts.ggufFolders ?? (() => [path.join(ctx.config.dataDir, 'models')]);
    this.nativeVectors = loadVectorFunctions(ctx.db, ctx.log);
    this.store = new RetrievalStore(ctx.db);
    this.choice = settings.get(CHOICE_KEY, DEFAULT_CHOICE);
    this.embedder = opts.embedder ?? this.build(this.choice);
    const rerankModel = settings.get(RERANKER_KEY, null);
    this.reranker = rerankModel ? new GgufReranker(this.ggufFolders, rerankModel) : null;
    lifecycle.onShutdown(() => this.close());
    // While vectors are being made the app is not quiet: the heap's release (a one-turn stall) waits.
    lifecycle.onShutdown(deferHeapRelease(() => this.draining !== null));
    // Background embedding belongs to the process that owns the data dir.
    lifecycle.onPrimary(() => this.start());
  }

  private build(choice: EmbedderChoice): Embedder {
    return embedderFor(choice, { ggufFolders: this.ggufFolders, apiKey: choice.api_key_sealed ? this.secrets.open(choice.api_key_sealed) : null });
  }

  /** Background embedding: now, after each processed file, after memory writes. */
  private start(): void {
    this.ctx.events.on('file.settled', (fileId: number) => {
      this.files.add(fileId);
      this.pendingFiles.add(fileId);
      this.kick();
    });
    this.ctx.events.on('memory.saved', () => this.kick());
    this.kick(true);
  }

  /** Asks the background loop for a pass (a full backlog scan when `full`). */
  kick(full = false): void {
    if (this.closed) return;
    if (full) this.files.clear();
    this.fullScan ||= full;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain().finally(() => (this.draining = null));
  }
  private fullScan = false;

  /** Settles when the background work in flight is done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    await nextTurn();
    do {
      this.again = false;
      const embedder = this.embedder;
      try {
        const full = this.fullScan;
        this.fullScan = false;
        const files = [...this.files];
        this.files.clear();
        if (full) {
          await this.embedAll(embedder);
          if (embedder === this.embedder && !this.closed) {
            for (const f of this.pendingFiles) this.ctx.events.emit('file.vectors', f);
            this.pendingFiles.clear();
          }
        } else
          for (const f of files) {
            await this.embedFile(embedder, f);
            if (embedder !== this.embedder || this.closed) continue;
            this.pendingFiles.delete(f);
            this.ctx.events.emit('file.vectors', f);
          }
        await this.embedMemories(embedder);
        if (embedder !== this.embedder || this.closed) continue;
        this.lastError = null;
        if (full) {
          // Complete (perhaps with nothing to embed yet): vectors now answer searches, and the
          // previous embedder's vectors can go.
          this.settings.set(READY_KEY, embedder.key);
          const space = this.store.findSpace(embedder.key);
          if (space) while (!this.closed && this.store.dropOtherSpaces(space.id)) await nextTurn();
        }
      } catch (err) {
        if (this.closed || embedder !== this.embedder) continue;
        this.lastError = (err as Error).message;
        this.ctx.log.warn({ err: this.lastError, embedder: embedder.key }, 'embedding failed; search uses bm25 alone meanwhile, retrying later');
        // Files waiting for their vectors now read completed, with `vectors: "failed"`.
        for (const f of this.pendingFiles) this.ctx.events.emit('file.vectors', f);
        this.fullScan = true;
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = null;
          this.kick(true);
        }, RETRY_MS).unref();
        return;
      }
    } while (this.again && !this.closed);
  }

  private async vectorsOf(embedder: Embedder, texts: string[]): Promise<{ space: number; vecs: Float32Array[] }> {
    const vecs = await embedder.embed(texts);
    const space = this.store.space(embedder.key, vecs[0]?.length ?? embedder.dims());
    return { space: space.id, vecs };
  }

  private embedAll(embedder: Embedder): Promise<void> {
    return this.embedBacklog(embedder, {
      pending: (space, after) => this.store.pendingPassages(space, after, BATCH),
      text: (r) => r.text,
      save: (space, rows, vecs) => this.store.savePassageVectors(space, rows, vecs),
      start: 0,
      next: (rows) => rows[rows.length - 1].id,
    });
  }

  private embedFile(embedder: Embedder, fileId: number): Promise<void> {
    return this.embedBacklog(embedder, {
      pending: (space, after) => this.store.pendingFilePassages(space, fileId, after, BATCH),
      text: (r) => r.text,
      save: (space, rows, vecs) => this.store.savePassageVectors(space, rows, vecs),
      start: -1,
      // Ordinals of embedded passages drop out of the backlog by themselves.
      next: () => -1,
    });
  }

  private embedMemories(embedder: Embedder): Promise<void> {
    return this.embedBacklog(embedder, {
      pending: (space, after) => this.store.pendingMemories(space, after, BATCH),
      text: (r) => r.memory,
      save: (space, rows, vecs) => this.store.saveMemoryVectors(space, rows, vecs),
      start: 0,
      next: (rows) => rows[rows.length - 1].id,
    });
  }

  /**
   * Embeds a backlog batch by batch until it is empty, the service closes or the embedder changes
   * (a batch embedded meanwhile is not saved under the new one). `next` moves the cursor past a batch.
   */
  private async embedBacklog<R>(
    embedder: Embedder,
    b: {
      pending(space: number, after: number): R[];
      text(r: R): string;
      save(space: number, rows: R[], vecs: Float32Array[]): void;
      start: number;
      next(rows: R[]): number;
    },
  ): Promise<void> {
    let after = b.start;
    for (;;) {
      if (this.closed || embedder !== this.embedder) return;
      const space = this.store.findSpace(embedder.key)?.id ?? -1;
      const rows = b.pending(space, after);
      if (!rows.length) return;
      const { space: id, vecs } = await this.vectorsOf(embedder, rows.map((r) => b.text(r)));
      if (embedder !== this.embedder) return;
      b.save(id, rows, vecs);
      after = b.next(rows);
    }
  }

  /**
   * Of these processed files, the ones whose passages still lack vectors from the selected
   * embedder: `pending` while it embeds them (or is being prepared), `failed` while it fails
   * (retried later). Files not listed have all their vectors (CONTRACT.md "Lean start").
   */
  vectorState(fileIds: number[]): Map<number, 'pending' | 'failed'> {
    const out = new Map<number, 'pending' | 'failed'>();
    const space = this.store.findSpace(this.embedder.key)?.id ?? -1;
    for (const id of this.store.filesPendingVectors(fileIds, space)) out.set(id, this.lastError ? 'failed' : 'pending');
    return out;
  }

  /** Files whose processing ended and that the background loop has not embedded yet. */
  private readonly pendingFiles = new Set<number>();

  /** The space whose vectors may answer searches: the current embedder's, once complete. */
  private searchSpace(): number | null {
    if (this.settings.get(READY_KEY, null) !== this.embedder.key) return null;
    return this.store.findSpace(this.embedder.key)?.id ?? null;
  }

  /**
   * The vector of a query, or null (bm25 alone answers). `worth` says whether any vector could
   * match it (some in scope): when none could, it is not embedded, since the vector search would
   * find nothing anyway; a vector already at hand is used either way.
   */
  private queryVector(text: string, worth: () => boolean): Promise<Float32Array | null> {
    const key = `${this.embedder.key}\n${text}`;
    const hit = this.queryCache.get(key);
    if (hit) {
      this.queryCache.delete(key);
      this.queryCache.set(key, hit);
      return Promise.resolve(hit);
    }
    const embedding = this.queryInFlight.get(key);
    if (embedding) return embedding;
    if (!worth()) return Promise.resolve(null);
    const p = withTimeout(this.embedQuery(this.embedder, text), QUERY_TIMEOUT_MS).then(
      (v) => {
        if (this.queryCache.size >= QUERY_CACHE) this.queryCache.delete(this.queryCache.keys().next().value!);
        this.queryCache.set(key, v);
        return v;
      },
      (err: Error) => {
        this.ctx.log.warn({ err: err.message }, 'could not embed the query; bm25 alone answers');
        return null;
      },
    );
    this.queryInFlight.set(key, p);
    void p.finally(() => this.queryInFlight.delete(key));
    return p;
  }

  /** One query's vector, embedded with the queries asked meanwhile. */
  private embedQuery(embedder: Embedder, text: string): Promise<Float32Array> {
    return new Promise((resolve, reject) => {
      this.queryQueue.push({ embedder, text, resolve, reject });
      if (!this.queryCall) this.nextQueries();
    });
  }

  /** Embeds the waiting queries (of one embedder) in one call, then the next ones. */
  private nextQueries(): void {
    if (this.closed) for (const q of this.queryQueue.splice(0)) q.reject(new Error('retrieval closed'));
    const first = this.queryQueue[0];
    if (!first) return;
    const batch: typeof this.queryQueue = [];
    for (let i = 0; i < this.queryQueue.length && batch.length < QUERY_BATCH; ) {
      if (this.queryQueue[i].embedder === first.embedder) batch.push(...this.queryQueue.splice(i, 1));
      else i++;
    }
    this.queryCall = true;
    // Bounded as each query is: an embedder that never answers does not hold the ones after it.
    void withTimeout(first.embedder.embed(batch.map((q) => q.text)), QUERY_TIMEOUT_MS)
      .then(
        (vs) => batch.forEach((q, i) => (vs[i] ? q.resolve(vs[i]) : q.reject(new Error(`no vector for query ${i + 1} of ${batch.length}`)))),
        (err: Error) => batch.forEach((q) => q.reject(err)),
      )
      .finally(() => {
        this.queryCall = false;
        this.nextQueries();
      });
  }

  /**
   * Best passages of `fileIds` for `query`, best first, with each method's score. `mode` picks
   * one method alone (the retrieval bench compares them).
   */
  async searchPassages(fileIds: number[], query: string, limit = 8, mode: 'hybrid' | 'bm25' | 'vector' = 'hybrid'): Promise<RankedPassage[]> {
    const ids = [...new Set(fileIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
    if (!ids.length || !query.trim() || limit <= 0) return [];
    const bm = mode === 'vector' ? [] : bm25Passages(this.ctx.db, ids, query, POOL);
    const space = mode === 'bm25' ? null : this.searchSpace();
    const qv = space !== null ? await this.queryVector(query, () => this.store.anyPassageVector(space, ids)) : null;
    const vec = space !== null && qv ? this.store.nearestPassages(space, ids, qv, POOL) : [];
    const all = fuseScores(
      bm.map((h) => ({ id: h.passage_id, score: -h.rank, text: h.text })),
      vec.map((v) => ({ id: v.id, score: v.similarity })),
      { query },
    );
    const rerank = mode === 'hybrid' && this.reranker !== null && all.length > 1;
    const fused = all.slice(0, rerank ? Math.max(limit, RERANK_POOL) : limit);
    const bmById = new Map(bm.map((h) => [h.passage_id, h]));
    const simById = new Map(vec.map((v) => [v.id, v.similarity]));
    const rows = this.store.passagesById(fused.filter((f) => !bmById.has(f.id)).map((f) => f.id));
    const out: RankedPassage[] = [];
    for (const f of fused) {
      const b = bmById.get(f.id);
      const r = b ? { passage_id: b.passage_id, file_id: b.file_id, filename: b.filename, ordinal: b.ordinal, text: b.text } : rows.get(f.id);
      if (!r) continue;
      out.push({ ...r, scores: { bm25: b ? -b.rank : null, vector: simById.get(f.id) ?? null, fused: f.fused } });
    }
    return rerank ? (await this.reorder(query, out)).slice(0, limit) : out;
  }

  /** The candidates in the reranker's order; its failure leaves the fused order (search never fails for it). */
  private async reorder(query: string, candidates: RankedPassage[]): Promise<RankedPassage[]> {
    try {
      const scores = await withTimeout(this.reranker!.rank(query, candidates.map((c) => c.text)), QUERY_TIMEOUT_MS);
      return candidates.map((c, i) => ({ c, s: scores[i] ?? -Infinity, i })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.c);
    } catch (err) {
      this.ctx.log.warn({ err: (err as Error).message }, 'the reranker failed; the fused order answers');
      return candidates;
    }
  }

  /**
   * The caller's memories most relevant to `text`, best first (bm25 and vectors fused by score), from
   * the collections the run names, else those in context (the memories module's rule, for both methods).
   */
  async relevantMemories(userId: number, text: string, limit = 20, named: number[] | null = null): Promise<{ id: number; memory: string }[]> {
    const collections = this.memories.contextCollections(userId, named);
    const bm = this.memories.relevant(userId, text, POOL, collections);
    const space = this.searchSpace();
    const qv = space !== null && text.trim() ? await this.queryVector(text, () => this.store.anyMemoryVector(space, userId, collections)) : null;
    const vec = space !== null && qv ? this.store.nearestMemories(space, userId, qv, POOL, collections) : [];
    const byId = new Map(bm.map((m) => [m.id, m.memory]));
    const missing = vec.filter((v) => !byId.has(v.id)).map((v) => v.id);
    if (missing.length) for (const m of this.store.memoryTexts(userId, missing)) byId.set(m.id, m.memory);
    return fuseScores(
      bm.map((m) => ({ id: m.id, score: -m.rank, text: m.memory })),
      vec.map((v) => ({ id: v.id, score: v.similarity })),
      { query: text },
    )
      .filter((f) => byId.has(f.id))
      .slice(0, limit)
      .map((f) => ({ id: f.id, memory: byId.get(f.id)! }));
  }

  /** The port executions use (see port.ts). */
  forExecutions(): ExecutionRetrieval {
    return {
      passages: (ids, query, limit) => this.searchPassages(ids, query, limit),
      wholeFile: (id, max) => this.store.wholeFile(id, max),
      memories: (userId, text, limit, collections) => this.relevantMemories(userId, text, limit, collections ?? null),
      conversationFileIds: (rootId, userId) => this.store.conversationFileIds(rootId, userId),
    };
  }

  view(): EmbeddingSettings {
    const space = this.store.findSpace(this.embedder.key);
    const { embedded, total } = this.store.progress(space?.id ?? null);
    const inUse = this.searchSpace() !== null;
    const status = this.lastError ? 'error' : embedded >= total && (inUse || total === 0) && !this.draining ? 'ready' : 'embedding';
    return {
      provider: this.choice.provider,
      model: this.choice.model,
      base_url: this.choice.base_url,
      has_api_key: !!this.choice.api_key_sealed,
      status,
      progress: total ? Math.min(1, embedded / total) : 1,
      embedded,
      total,
      vectors_in_use: inUse,
      error: this.lastError,
      reranker: this.settings.get(RERANKER_KEY, null),
    };
  }

  /** Chooses the embedder; a different one re-embeds everything in the background. */
  async update(body: EmbeddingSettingsUpdate): Promise<EmbeddingSettings> {
    const errors: Record<string, string[]> = {};
    const model = body.provider === 'builtin' ? BUILTIN_MODEL : body.model;
    if (body.provider === 'builtin' && body.model !== undefined && body.model !== BUILTIN_MODEL) errors.model = [`The built-in embedder has one model: ${BUILTIN_MODEL}.`];
    if (!model) errors.model = [say.required('model', 'for this provider')];
    if (body.provider === 'gguf' && model && !/^[^/\\]+$/.test(model)) errors.model = [say.must('model', 'be a file name in the models folder')];
    if (body.reranker && !/^[^/\\]+\.gguf$/i.test(body.reranker)) errors.reranker = [say.must('reranker', 'be a .gguf file name in the models folder')];
    if ((body.provider === 'builtin' || body.provider === 'gguf') && body.base_url) errors.base_url = ['The base url field is only used by the openai and ollama providers.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const keepKey = body.api_key === undefined && this.choice.provider === body.provider ? this.choice.api_key_sealed : null;
    const next: EmbedderChoice = {
      provider: body.provider,
      model: model!,
      base_url: body.provider === 'openai' || body.provider === 'ollama' ? (body.base_url ?? null) : null,
      api_key_sealed: body.api_key ? this.secrets.seal(body.api_key) : keepKey,
    };
    keepSecretOnlyWhereEntered(
      { kept: !!keepKey, given: body.api_key !== undefined, moved: (next.base_url ?? null) !== (this.choice.base_url ?? null) ? 'base_url' : null },
      () => 'To change the embeddings base URL, enter its API key again: a stored key is only sent to the address it was entered for.',
    );
    this.settings.set(CHOICE_KEY, next);
    if (body.reranker !== undefined && body.reranker !== this.settings.get(RERANKER_KEY, null)) {
      this.settings.set(RERANKER_KEY, body.reranker);
      void this.reranker?.close().catch(() => {});
      this.reranker = body.reranker ? new GgufReranker(this.ggufFolders, body.reranker) : null;
    }
    const old = this.embedder;
    this.choice = next;
    this.embedder = this.build(next);
    this.lastError = null;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (old.key !== this.embedder.key || old !== this.embedder) void old.close().catch(() => {});
    this.kick(true);
    return this.view();
  }

  /** The embedder in use and the model id it serves as (`/v1/embeddings`). */
  current(): { embedder: Embedder; model: string; provider: EmbedderChoice['provider'] } {
    return { embedder: this.embedder, model: this.choice.model, provider: this.choice.provider };
  }

  /** For tests and benches: swap in an embedder object directly (same effect as a settings change). */
  useEmbedder(embedder: Embedder): void {
    const old = this.embedder;
    this.embedder = embedder;
    this.lastError = null;
    void old.close().catch(() => {});
    this.kick(true);
  }

  /** For tests: swap in a reranker object directly (null: off), as the setting would. */
  useReranker(reranker: Reranker | null): void {
    void this.reranker?.close().catch(() => {});
    this.reranker = reranker;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.reranker?.close().catch(() => {});
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // Ending the embedder first fails its pending batch at once instead of waiting for it.
    await this.embedder.close().catch(() => {});
    await this.draining?.catch(() => {});
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}
