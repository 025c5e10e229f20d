import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Collection } from '../../contract/memories.js';
import { nowMicros } from '../../kernel/time.js';
import { MemoriesStore, type CollectionRow } from './store.js';
import { say } from '../../contract/messages.js';

export const DEFAULT_COLLECTION = 'default';

export const toCollection = (r: CollectionRow): Collection => ({ id: r.id, user_id: r.user_id, name: r.name });
const withContext = (r: CollectionRow): Collection & { in_context: boolean } => ({ ...toCollection(r), in_context: r.in_context === 1 });
export const displayName = (name: string): string => (name === DEFAULT_COLLECTION ? 'Default' : name);

/** Memory collections: the user's named groups of memories; `default` is made when first needed. */
export class CollectionsService {
  /** The memories module's SQL; MemoriesService shares it. */
  readonly store: MemoriesStore;

  constructor(ctx: ServiceContext) {
    this.store = new MemoriesStore(ctx.db);
  }

  list(userId: number, q: { page: number; per_page: number; search?: string }): Page<Collection & { in_context: boolean; display_name: string }> {
    const { rows, total } = this.store.collectionPage(userId, q.search ? q.search.toLowerCase() : null, q.per_page, offsetOf(q.page, q.per_page));
    const items = rows.map((r) => ({ ...withContext(r), display_name: displayName(r.name) }));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  /** 404 `Collection not found` unless the user owns it. */
  get(userId: number, rawId: string | number): Collection {
    const id = parseId(rawId);
    const row = id ? this.store.collection(userId, id) : undefined;
    if (!row) throw new NotFoundError('Collection not found');
    return toCollection(row);
  }

  /** true when the collection exists and is the user's. */
  owns(userId: number, id: number): boolean {
    return !!this.store.collection(userId, id);
  }

  /** For request bodies: an id that is not the user's collection is a 422, as Laravel's `exists` rule says. */
  requireForInput(userId: number, id: number): Collection {
    const row = this.store.collection(userId, id);
    if (!row) throw ValidationError.field('collection_id', say.invalid('collection id'));
    return toCollection(row);
  }

  defaultFor(userId: number): Collection {
    const found = this.store.collectionByName(userId, DEFAULT_COLLECTION);
    if (found) return toCollection(found);
    this.store.insertCollectionIfMissing(userId, DEFAULT_COLLECTION, nowMicros());
    return toCollection(this.store.collectionByName(userId, DEFAULT_COLLECTION)!);
  }

  create(userId: number, name: string): Collection {
    if (this.store.collectionByName(userId, name)) throw ValidationError.field('name', 'The name has already been taken.');
    return this.get(userId, this.store.insertCollection(userId, name, nowMicros()));
  }

  /** Renames it; ext `inContext` also turns its memories on or off for runs that name no collections. */
  rename(userId: number, rawId: string, name: string, inContext?: boolean): Collection {
    const col = this.get(userId, rawId);
    const clash = this.store.collectionByName(userId, name);
    if (clash && clash.id !== col.id) throw ValidationError.field('name', 'The name has already been taken.');
    if (col.name === DEFAULT_COLLECTION && name !== DEFAULT_COLLECTION) {
      throw ValidationError.field('name', 'The default collection cannot be renamed.');
    }
    this.store.transaction(() => {
      this.store.renameCollection(col.id, name, nowMicros());
      if (inContext !== undefined) this.store.setInContext(col.id, inContext, nowMicros());
    });
    return this.get(userId, col.id);
  }

  /** The user's collections whose memories a run that names no collections may use. */
  inContextIds(userId: number): number[] {
    return this.store.inContextIds(userId);
  }

  /** ext. Never loses data: the collection's memories move to the default collection. */
  delete(userId: number, rawId: string): { moved: number } {
    const col = this.get(userId, rawId);
    if (col.name === DEFAULT_COLLECTION) throw new ForbiddenError('The default collection cannot be deleted.');
    return this.store.transaction(() => {
      const target = this.defaultFor(userId);
      const moved = this.store.moveMemories(col.id, target.id, nowMicros());
      this.store.deleteCollection(col.id);
      return { moved };
    });
  }
}
