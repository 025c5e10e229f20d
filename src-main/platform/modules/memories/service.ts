import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { Collection, Memory } from '../../contract/memories.js';
import type { CollectionsService } from './collections.js';
import { toCollection } from './collections.js';
import { nowMicros } from '../../kernel/time.js';
import { ftsQuery as keywordQuery } from '../files/search.js';

interface MemoryRow {
  id: number;
  user_id: number;
  collection_id: number;
  memory: string;
  credits: number;
}

const toMemory = (r: MemoryRow): Memory => ({ id: r.id, user_id: r.user_id, collection_id: r.collection_id, memory: r.memory, credits: r.credits });
const COLS = 'id, user_id, collection_id, memory, credits';

/** Turns free text into a safe FTS5 query: each word quoted, OR-ed, so punctuation never breaks MATCH. */
export function ftsQuery(text: string, maxTerms = 32): string | null {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length > 1);
  const unique = [...new Set(words)].slice(0, maxTerms);
  return unique.length ? unique.map((w) => `"${w}"`).join(' OR ') : null;
}

export class MemoriesService {
  private readonly byId;
  private readonly pageAll;
  private readonly pageByCollection;
  private readonly countAll;
  private readonly countByCollection;
  private readonly relevantStmt;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly collections: CollectionsService,
  ) {
    const db = ctx.db;
    this.byId = db.prepare<[number, number], MemoryRow>(`SELECT ${COLS} FROM memories WHERE id = ? AND user_id = ?`);
    this.pageAll = db.prepare<[number, number, number], MemoryRow>(`SELECT ${COLS} FROM memories WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`);
    this.pageByCollection = db.prepare<[number, number, number, number], MemoryRow>(
      `SELECT ${COLS} FROM memories WHERE user_id = ? AND collection_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    );
    this.countAll = db.prepare<[number], { n: number }>('SELECT coalesce(sum(n), 0) AS n FROM memory_counts WHERE user_id = ?');
    this.relevantStmt = db.prepare<{ match: string; userId: number; limit: number; collections: string | null }, MemoryRow & { rank: number }>(
      `SELECT m.id, m.user_id, m.collection_id, m.memory, m.credits, bm25(memories_fts) AS rank
       FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid
       WHERE memories_fts MATCH @match AND m.user_id = @userId
         AND (@collections IS NULL OR m.collection_id IN (SELECT value FROM json_each(@collections)))
       ORDER BY rank LIMIT @limit`,
    );
    this.countByCollection = db.prepare<[number, number], { n: number }>('SELECT coalesce(sum(n), 0) AS n FROM memory_counts WHERE user_id = ? AND collection_id = ?');
  }

  list(userId: number, q: { page: number; per_page: number; collection_id?: number; q?: string }): Page<Memory> {
    if (q.collection_id !== undefined) this.collections.requireForInput(userId, q.collection_id);
    const offset = offsetOf(q.page, q.per_page);
    const match = q.q !== undefined ? ftsQuery(q.q) : undefined;
    if (match !== undefined) {
      if (match === null) return { items: [], total: 0, page: q.page, perPage: q.per_page };
      // ext q: ranked full-text search (best first), optionally within one collection.
      const where = `memories_fts MATCH @match AND m.user_id = @userId AND (@col IS NULL OR m.collection_id = @col)`;
      const params = { match, userId, col: q.collection_id ?? null };
      const total = this.ctx.db.prepare<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid WHERE ${where}`).get(params)!.n;
      const items = this.ctx.db
        .prepare<Record<string, unknown>, MemoryRow>(
          `SELECT m.id, m.user_id, m.collection_id, m.memory, m.credits FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid WHERE ${where} ORDER BY bm25(memories_fts), m.id DESC LIMIT @limit OFFSET @offset`,
        )
        .all({ ...params, limit: q.per_page, offset })
        .map(toMemory);
      return { items, total, page: q.page, perPage: q.per_page };
    }
    const [rows, total] =
      q.collection_id !== undefined
        ? [this.pageByCollection.all(userId, q.collection_id, q.per_page, offset), this.countByCollection.get(userId, q.collection_id)!.n]
        : [this.pageAll.all(userId, q.per_page, offset), this.countAll.get(userId)!.n];
    return { items: rows.map(toMemory), total, page: q.page, perPage: q.per_page };
  }

  private row(userId: number, rawId: string | number): MemoryRow {
    const id = parseId(rawId);
    const row = id ? this.byId.get(id, userId) : undefined;
    if (!row) throw new NotFoundError('Memory not found!');
    return row;
  }

  private targetCollection(userId: number, collectionId: number | null | undefined): Collection {
    return collectionId === undefined || collectionId === null
      ? this.collections.defaultFor(userId)
      : this.collections.requireForInput(userId, collectionId);
  }

  create(userId: number, body: { memory: string; collection_id?: number | null }): Memory {
    const memory = this.ctx.db.transaction(() => {
      const col = this.targetCollection(userId, body.collection_id);
      const now = nowMicros();
      const id = Number(
        this.ctx.db
          .prepare('INSERT INTO memories(user_id, collection_id, memory, credits, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)')
          .run(userId, col.id, body.memory, now, now).lastInsertRowid,
      );
      return toMemory(this.byId.get(id, userId)!);
    }).immediate();
    // Retrieval embeds it in the background.
    this.ctx.events.emit('memory.saved', memory.id);
    return memory;
  }

  update(userId: number, rawId: string, body: { memory: string; collection_id?: number | null }): Memory & { collection: Collection } {
    const memory = this.ctx.db.transaction(() => {
      const row = this.row(userId, rawId);
      const col = body.collection_id === undefined ? this.collections.get(userId, row.collection_id) : this.targetCollection(userId, body.collection_id);
      this.ctx.db.prepare('UPDATE memories SET memory = ?, collection_id = ?, updated_at = ? WHERE id = ?').run(body.memory, col.id, nowMicros(), row.id);
      const updated = this.byId.get(row.id, userId)!;
      return { ...toMemory(updated), collection: toCollection(col) };
    }).immediate();
    this.ctx.events.emit('memory.saved', memory.id);
    return memory;
  }

  delete(userId: number, rawId: string): void {
    const row = this.row(userId, rawId);
    this.ctx.db.prepare('DELETE FROM memories WHERE id = ?').run(row.id);
  }

  /** true when the collection id is one of the user's (ext `memory_collections` of an execution). */
  ownsCollection(userId: number, collectionId: number): boolean {
    return this.collections.owns(userId, collectionId);
  }

  /**
   * The caller's memories most relevant to `text`, best first (execution context); with
   * `collections`, only memories of those collections (ext `memory_collections`).
   */
  relevant(userId: number, text: string, limit = 20, collections: number[] | null = null): (Memory & { rank: number })[] {
    // Stop words dropped (as for file passages): "my" or "the" must not make a memory relevant.
    const match = keywordQuery(text);
    if (!match) return [];
    return this.relevantStmt
      .all({ match, userId, limit, collections: collections ? JSON.stringify(collections) : null })
      .map((r) => ({ ...toMemory(r), rank: r.rank }));
  }
}
