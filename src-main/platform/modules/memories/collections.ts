import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Collection } from '../../contract/memories.js';
import { nowMicros } from '../../kernel/time.js';

export const DEFAULT_COLLECTION = 'default';

interface CollectionRow {
  id: number;
  user_id: number;
  name: string;
}

export const toCollection = (r: CollectionRow): Collection => ({ id: r.id, user_id: r.user_id, name: r.name });
export const displayName = (name: string): string => (name === DEFAULT_COLLECTION ? 'Default' : name);

/** Memory collections: the user's named groups of memories; `default` is made when first needed. */
export class CollectionsService {
  private readonly byId;
  private readonly byName;

  constructor(private readonly ctx: ServiceContext) {
    this.byId = ctx.db.prepare<[number, number], CollectionRow>('SELECT id, user_id, name FROM memory_collections WHERE id = ? AND user_id = ?');
    this.byName = ctx.db.prepare<[number, string], CollectionRow>('SELECT id, user_id, name FROM memory_collections WHERE user_id = ? AND name = ?');
  }

  list(userId: number, q: { page: number; per_page: number; search?: string }): Page<Collection & { display_name: string }> {
    const where = `user_id = @userId AND (@s IS NULL OR instr(casefold(name), @s) > 0)`;
    const params = { userId, s: q.search ? q.search.toLowerCase() : null };
    const total = this.ctx.db.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM memory_collections WHERE ${where}`).get(params)!.n;
    const items = this.ctx.db
      .prepare<Record<string, unknown>, CollectionRow>(`SELECT id, user_id, name FROM memory_collections WHERE ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: q.per_page, offset: offsetOf(q.page, q.per_page) })
      .map((r) => ({ ...toCollection(r), display_name: displayName(r.name) }));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  /** 404 `Collection not found` unless the user owns it. */
  get(userId: number, rawId: string | number): Collection {
    const id = parseId(rawId);
    const row = id ? this.byId.get(id, userId) : undefined;
    if (!row) throw new NotFoundError('Collection not found');
    return toCollection(row);
  }

  /** true when the collection exists and is the user's. */
  owns(userId: number, id: number): boolean {
    return !!this.byId.get(id, userId);
  }

  /** For request bodies: an id that is not the user's collection is a 422, as Laravel's `exists` rule says. */
  requireForInput(userId: number, id: number): Collection {
    const row = this.byId.get(id, userId);
    if (!row) throw ValidationError.field('collection_id', 'The selected collection id is invalid.');
    return toCollection(row);
  }

  defaultFor(userId: number): Collection {
    const found = this.byName.get(userId, DEFAULT_COLLECTION);
    if (found) return toCollection(found);
    const now = nowMicros();
    this.ctx.db
      .prepare('INSERT OR IGNORE INTO memory_collections(user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(userId, DEFAULT_COLLECTION, now, now);
    return toCollection(this.byName.get(userId, DEFAULT_COLLECTION)!);
  }

  create(userId: number, name: string): Collection {
    if (this.byName.get(userId, name)) throw ValidationError.field('name', 'The name has already been taken.');
    const now = nowMicros();
    const id = Number(
      this.ctx.db.prepare('INSERT INTO memory_collections(user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(userId, name, now, now).lastInsertRowid,
    );
    return this.get(userId, id);
  }

  rename(userId: number, rawId: string, name: string): Collection {
    const col = this.get(userId, rawId);
    const clash = this.byName.get(userId, name);
    if (clash && clash.id !== col.id) throw ValidationError.field('name', 'The name has already been taken.');
    if (col.name === DEFAULT_COLLECTION && name !== DEFAULT_COLLECTION) {
      throw ValidationError.field('name', 'The default collection cannot be renamed.');
    }
    this.ctx.db.prepare('UPDATE memory_collections SET name = ?, updated_at = ? WHERE id = ?').run(name, nowMicros(), col.id);
    return this.get(userId, col.id);
  }

  /** ext. Never loses data: the collection's memories move to the default collection. */
  delete(userId: number, rawId: string): { moved: number } {
    const col = this.get(userId, rawId);
    if (col.name === DEFAULT_COLLECTION) throw new ForbiddenError('The default collection cannot be deleted.');
    return this.ctx.db.transaction(() => {
      const target = this.defaultFor(userId);
      const moved = this.ctx.db.prepare('UPDATE memories SET collection_id = ?, updated_at = ? WHERE collection_id = ?').run(target.id, nowMicros(), col.id).changes;
      this.ctx.db.prepare('DELETE FROM memory_counts WHERE collection_id = ?').run(col.id);
      this.ctx.db.prepare('DELETE FROM memory_collections WHERE id = ?').run(col.id);
      return { moved };
    }).immediate();
  }
}
