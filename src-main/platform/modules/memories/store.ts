import type { DB } from '../../db/connection.js';

export interface MemoryRow {
  id: number;
  user_id: number;
  collection_id: number;
  memory: string;
  credits: number;
}

export interface CollectionRow {
  id: number;
  user_id: number;
  name: string;
  /** 1: its memories enter a run that names no collections; 0: only one that names it (an import's). */
  in_context: number;
}

const COLS = 'id, user_id, collection_id, memory, credits';
const FTS_FROM = 'FROM memories_fts JOIN memories m ON m.id = memories_fts.rowid';

type SearchParams = { match: string; userId: number; col: number | null };
type CollectionFilter = { userId: number; s: string | null };

/** All SQL of memories and their collections, statements prepared once. */
export class MemoriesStore {
  private readonly byIdStmt;
  private readonly pageAllStmt;
  private readonly pageByCollectionStmt;
  private readonly countAllStmt;
  private readonly countByCollectionStmt;
  private readonly searchCountStmt;
  private readonly searchPageStmt;
  private readonly relevantStmt;
  private readonly insertStmt;
  private readonly updateStmt;
  private readonly deleteStmt;
  private readonly collectionByIdStmt;
  private readonly collectionByNameStmt;
  private readonly collectionCountStmt;
  private readonly collectionPageStmt;
  private readonly insertDefaultStmt;
  private readonly insertCollectionStmt;
  private readonly renameCollectionStmt;
  private readonly moveMemoriesStmt;
  private readonly dropCountsStmt;
  private readonly deleteCollectionStmt;
  private readonly inContextStmt;
  private readonly setInContextStmt;
  private readonly anyInContextStmt;
  private readonly anyInStmt;

  constructor(private readonly db: DB) {
    this.byIdStmt = db.prepare<[number, number], MemoryRow>(`SELECT ${COLS} FROM memories WHERE id = ? AND user_id = ?`);
    this.pageAllStmt = db.prepare<[number, number, number], MemoryRow>(`SELECT ${COLS} FROM memories WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`);
    this.pageByCollectionStmt = db.prepare<[number, number, number, number], MemoryRow>(
      `SELECT ${COLS} FROM memories WHERE user_id = ? AND collection_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
    );
    // Totals come from the trigger-kept memory_counts, not a count(*) over memories.
    this.countAllStmt = db.prepare<[number], { n: number }>('SELECT coalesce(sum(n), 0) AS n FROM memory_counts WHERE user_id = ?');
    this.countByCollectionStmt = db.prepare<[number, number], { n: number }>(
      'SELECT coalesce(sum(n), 0) AS n FROM memory_counts WHERE user_id = ? AND collection_id = ?',
    );
    const searchWhere = 'memories_fts MATCH @match AND m.user_id = @userId AND (@col IS NULL OR m.collection_id = @col)';
    this.searchCountStmt = db.prepare<SearchParams, { n: number }>(`SELECT count(*) AS n ${FTS_FROM} WHERE ${searchWhere}`);
    this.searchPageStmt = db.prepare<SearchParams & { limit: number; offset: number }, MemoryRow>(
      `SELECT m.id, m.user_id, m.collection_id, m.memory, m.credits ${FTS_FROM} WHERE ${searchWhere} ORDER BY bm25(memories_fts), m.id DESC LIMIT @limit OFFSET @offset`,
    );
    this.relevantStmt = db.prepare<{ match: string; userId: number; limit: number; collections: string | null }, MemoryRow & { rank: number }>(
      `SELECT m.id, m.user_id, m.collection_id, m.memory, m.credits, bm25(memories_fts) AS rank
       ${FTS_FROM}
       WHERE memories_fts MATCH @match AND m.user_id = @userId
         AND (@collections IS NULL OR m.collection_id IN (SELECT value FROM json_each(@collections)))
       ORDER BY rank LIMIT @limit`,
    );
    this.insertStmt = db.prepare<[number, number, string, number, number]>(
      'INSERT INTO memories(user_id, collection_id, memory, credits, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)',
    );
    this.updateStmt = db.prepare<[string, number, number, number]>('UPDATE memories SET memory = ?, collection_id = ?, updated_at = ? WHERE id = ?');
    this.deleteStmt = db.prepare<[number]>('DELETE FROM memories WHERE id = ?');

    this.collectionByIdStmt = db.prepare<[number, number], CollectionRow>('SELECT id, user_id, name, in_context FROM memory_collections WHERE id = ? AND user_id = ?');
    this.collectionByNameStmt = db.prepare<[number, string], CollectionRow>('SELECT id, user_id, name, in_context FROM memory_collections WHERE user_id = ? AND name = ?');
    const collectionWhere = 'user_id = @userId AND (@s IS NULL OR instr(casefold(name), @s) > 0)';
    this.collectionCountStmt = db.prepare<CollectionFilter, { n: number }>(`SELECT count(*) AS n FROM memory_collections WHERE ${collectionWhere}`);
    this.collectionPageStmt = db.prepare<CollectionFilter & { limit: number; offset: number }, CollectionRow>(
      `SELECT id, user_id, name, in_context FROM memory_collections WHERE ${collectionWhere} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    );
    this.insertDefaultStmt = db.prepare<[number, string, number, number]>(
      'INSERT OR IGNORE INTO memory_collections(user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)',
    );
    this.insertCollectionStmt = db.prepare<[number, string, number, number]>('INSERT INTO memory_collections(user_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
    this.renameCollectionStmt = db.prepare<[string, number, number]>('UPDATE memory_collections SET name = ?, updated_at = ? WHERE id = ?');
    this.moveMemoriesStmt = db.prepare<[number, number, number]>('UPDATE memories SET collection_id = ?, updated_at = ? WHERE collection_id = ?');
    this.dropCountsStmt = db.prepare<[number]>('DELETE FROM memory_counts WHERE collection_id = ?');
    this.deleteCollectionStmt = db.prepare<[number]>('DELETE FROM memory_collections WHERE id = ?');
    this.inContextStmt = db.prepare<[number], { id: number }>('SELECT id FROM memory_collections WHERE user_id = ? AND in_context = 1 ORDER BY id');
    this.setInContextStmt = db.prepare<[number, number, number]>('UPDATE memory_collections SET in_context = ?, updated_at = ? WHERE id = ?');
    // memory_counts is kept by triggers: its primary key answers these without touching memories.
    this.anyInContextStmt = db
      .prepare<[number], number>(
        `SELECT EXISTS (SELECT 1 FROM memory_counts mc JOIN memory_collections c ON c.id = mc.collection_id
           WHERE mc.user_id = ? AND mc.n > 0 AND c.in_context = 1)`,
      )
      .pluck();
    this.anyInStmt = db
      .prepare<[number, string], number>(
        `SELECT EXISTS (SELECT 1 FROM memory_counts WHERE user_id = ? AND n > 0
           AND collection_id IN (SELECT value FROM json_each(?)))`,
      )
      .pluck();
  }

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE); nested calls join the outer one. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  // Memories

  memory(userId: number, id: number): MemoryRow | undefined {
    return this.byIdStmt.get(id, userId);
  }

  /** Newest first; within one collection when `collectionId` is given. */
  page(userId: number, collectionId: number | undefined, limit: number, offset: number): { rows: MemoryRow[]; total: number } {
    return collectionId !== undefined
      ? { rows: this.pageByCollectionStmt.all(userId, collectionId, limit, offset), total: this.countByCollectionStmt.get(userId, collectionId)!.n }
      : { rows: this.pageAllStmt.all(userId, limit, offset), total: this.countAllStmt.get(userId)!.n };
  }

  /** Full-text matches of an FTS5 query, best first, optionally within one collection. */
  search(userId: number, match: string, collectionId: number | null, limit: number, offset: number): { rows: MemoryRow[]; total: number } {
    const params = { match, userId, col: collectionId };
    return { rows: this.searchPageStmt.all({ ...params, limit, offset }), total: this.searchCountStmt.get(params)!.n };
  }

  /** Ranked matches (bm25) of an FTS5 query; `collections` null means all of the user's. */
  relevant(userId: number, match: string, limit: number, collections: number[] | null): (MemoryRow & { rank: number })[] {
    return this.relevantStmt.all({ match, userId, limit, collections: collections ? JSON.stringify(collections) : null });
  }

  insert(userId: number, collectionId: number, memory: string, now: number): number {
    return Number(this.insertStmt.run(userId, collectionId, memory, now, now).lastInsertRowid);
  }

  update(id: number, memory: string, collectionId: number, now: number): void {
    this.updateStmt.run(memory, collectionId, now, id);
  }

  delete(id: number): void {
    this.deleteStmt.run(id);
  }

  // Collections

  collection(userId: number, id: number): CollectionRow | undefined {
    return this.collectionByIdStmt.get(id, userId);
  }

  collectionByName(userId: number, name: string): CollectionRow | undefined {
    return this.collectionByNameStmt.get(userId, name);
  }

  /** Newest first; `search` (lower-cased) keeps names that contain it, case-folded. */
  collectionPage(userId: number, search: string | null, limit: number, offset: number): { rows: CollectionRow[]; total: number } {
    const params = { userId, s: search };
    return { rows: this.collectionPageStmt.all({ ...params, limit, offset }), total: this.collectionCountStmt.get(params)!.n };
  }

  /** Inserts the collection unless the user already has one of that name (two first uses at once). */
  insertCollectionIfMissing(userId: number, name: string, now: number): void {
    this.insertDefaultStmt.run(userId, name, now, now);
  }

  insertCollection(userId: number, name: string, now: number): number {
    return Number(this.insertCollectionStmt.run(userId, name, now, now).lastInsertRowid);
  }

  renameCollection(id: number, name: string, now: number): void {
    this.renameCollectionStmt.run(name, now, id);
  }

  /** Moves every memory of collection `from` into `to`; the number moved. */
  moveMemories(from: number, to: number, now: number): number {
    return this.moveMemoriesStmt.run(to, now, from).changes;
  }

  /** The ids of the user's collections whose memories a run that names none may use. */
  inContextIds(userId: number): number[] {
    return this.inContextStmt.all(userId).map((r) => r.id);
  }

  /** Whether the user has a memory in any in-context collection (`collections` null) or in one of `collections`. */
  anyMemoryIn(userId: number, collections: number[] | null): boolean {
    return (collections ? this.anyInStmt.get(userId, JSON.stringify(collections)) : this.anyInContextStmt.get(userId)) === 1;
  }

  setInContext(id: number, inContext: boolean, now: number): void {
    this.setInContextStmt.run(inContext ? 1 : 0, now, id);
  }

  /** Deletes an (emptied) collection and its count rows. */
  deleteCollection(id: number): void {
    this.dropCountsStmt.run(id);
    this.deleteCollectionStmt.run(id);
  }
}
