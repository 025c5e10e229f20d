import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { Collection, Memory } from '../../contract/memories.js';
import type { CollectionsService } from './collections.js';
import { nowMicros } from '../../kernel/time.js';
import { ftsQuery } from '../../db/fts-query.js';
import type { MemoriesStore, MemoryRow } from './store.js';

const toMemory = (r: MemoryRow): Memory => ({ id: r.id, user_id: r.user_id, collection_id: r.collection_id, memory: r.memory, credits: r.credits });

export class MemoriesService {
  private readonly store: MemoriesStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly collections: CollectionsService,
  ) {
    this.store = collections.store;
  }

  list(userId: number, q: { page: number; per_page: number; collection_id?: number; q?: string }): Page<Memory> {
    if (q.collection_id !== undefined) this.collections.requireForInput(userId, q.collection_id);
    const offset = offsetOf(q.page, q.per_page);
    const match = q.q !== undefined ? ftsQuery(q.q) : undefined;
    if (match !== undefined) {
      if (match === null) return { items: [], total: 0, page: q.page, perPage: q.per_page };
      // ext q: ranked full-text search (best first), optionally within one collection.
      const { rows, total } = this.store.search(userId, match, q.collection_id ?? null, q.per_page, offset);
      return { items: rows.map(toMemory), total, page: q.page, perPage: q.per_page };
    }
    const { rows, total } = this.store.page(userId, q.collection_id, q.per_page, offset);
    return { items: rows.map(toMemory), total, page: q.page, perPage: q.per_page };
  }

  private row(userId: number, rawId: string | number): MemoryRow {
    const id = parseId(rawId);
    const row = id ? this.store.memory(userId, id) : undefined;
    if (!row) throw new NotFoundError('Memory not found!');
    return row;
  }

  private targetCollection(userId: number, collectionId: number | null | undefined): Collection {
    return collectionId === undefined || collectionId === null
      ? this.collections.defaultFor(userId)
      : this.collections.requireForInput(userId, collectionId);
  }

  create(userId: number, body: { memory: string; collection_id?: number | null }): Memory {
    const memory = this.store.transaction(() => {
      const col = this.targetCollection(userId, body.collection_id);
      const id = this.store.insert(userId, col.id, body.memory, nowMicros());
      return toMemory(this.store.memory(userId, id)!);
    });
    // Retrieval embeds it in the background.
    this.ctx.events.emit('memory.saved', memory.id);
    return memory;
  }

  update(userId: number, rawId: string, body: { memory: string; collection_id?: number | null }): Memory & { collection: Collection } {
    const memory = this.store.transaction(() => {
      const row = this.row(userId, rawId);
      const col = body.collection_id === undefined ? this.collections.get(userId, row.collection_id) : this.targetCollection(userId, body.collection_id);
      this.store.update(row.id, body.memory, col.id, nowMicros());
      const updated = this.store.memory(userId, row.id)!;
      return { ...toMemory(updated), collection: col };
    });
    this.ctx.events.emit('memory.saved', memory.id);
    return memory;
  }

  delete(userId: number, rawId: string): void {
    const row = this.row(userId, rawId);
    this.store.delete(row.id);
  }

  /** true when the collection id is one of the user's (ext `memory_collections` of an execution). */
  ownsCollection(userId: number, collectionId: number): boolean {
    return this.collections.owns(userId, collectionId);
  }

  /**
   * The collections a run searches: those it names (ext `memory_collections`), else every one of
   * the user's that is in context (not one an archive brought, unless the person turned it on).
   */
  contextCollections(userId: number, named: number[] | null): number[] {
    return named ?? this.collections.inContextIds(userId);
  }

  /**
   * Whether a run's memory search could find anything: a memory in the collections
   * `contextCollections` gives. One indexed read of the trigger-kept counts, so it is right at
   * once after any connection's write; a run without memories skips the search (and its query
   * embedding) altogether.
   */
  anyToFind(userId: number, named: number[] | null): boolean {
    return this.store.anyMemoryIn(userId, named);
  }

  /**
   * The caller's memories most relevant to `text`, best first (execution context), from the
   * collections `contextCollections` gives for `collections`.
   */
  relevant(userId: number, text: string, limit = 20, collections: number[] | null = null): (Memory & { rank: number })[] {
    // Stop words dropped: "my" or "the" must not make a memory relevant.
    const match = ftsQuery(text);
    if (!match) return [];
    return this.store
      .relevant(userId, match, limit, this.contextCollections(userId, collections))
      .map((r) => ({ ...toMemory(r), rank: r.rank }));
  }
}
