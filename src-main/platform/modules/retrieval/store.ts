import * as sqliteVec from 'sqlite-vec';
import type { DB } from '../../db/connection.js';
import type { Logger } from '../../kernel/log.js';
import { nowMicros } from '../../kernel/time.js';
import { toBlob } from './vectors.js';
import { readStoredList } from '../../kernel/stored-json.js';

export interface PendingPassage {
  id: number;
  file_id: number;
  text: string;
}

export interface PendingMemory {
  id: number;
  user_id: number;
  memory: string;
}

export interface VectorHit {
  id: number;
  similarity: number;
}

export interface PassageRow {
  passage_id: number;
  file_id: number;
  filename: string;
  ordinal: number;
  text: string;
}

/** Every SQL statement of retrieval: embedding spaces, vectors, their search and the embedding backlog. */
export class RetrievalStore {
  private readonly spaceByKey;
  private readonly insertSpace;
  private readonly pendingPassagesStmt;
  private readonly pendingFilePassagesStmt;
  private readonly pendingMemoriesStmt;
  private readonly insertPassageVec;
  private readonly insertMemoryVec;
  private readonly nearestPassagesStmt;
  private readonly nearestMemoriesStmt;
  private readonly anyPassageVectorStmt;
  private readonly anyMemoryVectorStmt;
  private readonly passagesByIdStmt;
  private readonly countPassages;
  private readonly countMemories;
  private readonly countPassageVecs;
  private readonly countMemoryVecs;
  private readonly dropPassageVecs;
  private readonly dropMemoryVecs;
  private readonly dropSpaces;
  private readonly conversationFilesStmt;
  private readonly wholeFileStmt;
  private readonly fileNameStmt;
  private readonly memoryTextsStmt;

  constructor(private readonly db: DB) {
    this.spaceByKey = db.prepare<[string], { id: number; dims: number }>('SELECT id, dims FROM embedding_spaces WHERE key = ?');
    this.insertSpace = db.prepare('INSERT INTO embedding_spaces(key, dims, created_at) VALUES (?, ?, ?)');
    // The backlog: passages of completed files with no vector in the space, in id order (a cursor
    // walks it once; the anti-join is an index probe per passage).
    this.pendingPassagesStmt = db.prepare<[number, number, number], PendingPassage>(
      `SELECT p.id, p.file_id, p.text FROM file_passages p JOIN files f ON f.id = p.file_id
       WHERE p.id > ? AND f.status = 'completed' AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.passage_id = p.id AND v.space = ?)
       ORDER BY p.id LIMIT ?`,
    );
    this.pendingFilePassagesStmt = db.prepare<[number, number, number, number], PendingPassage>(
      `SELECT p.id, p.file_id, p.text FROM file_passages p
       WHERE p.file_id = ? AND p.ordinal > ? AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.passage_id = p.id AND v.space = ?)
       ORDER BY p.ordinal LIMIT ?`,
    );
    this.pendingMemoriesStmt = db.prepare<[number, number, number], PendingMemory>(
      `SELECT m.id, m.user_id, m.memory FROM memories m
       WHERE m.id > ? AND NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.space = ?) ORDER BY m.id LIMIT ?`,
    );
    // OR IGNORE: a passage deleted or embedded meanwhile is simply skipped.
    this.insertPassageVec = db.prepare(
      'INSERT OR IGNORE INTO passage_vectors(space, file_id, passage_id, vec) SELECT ?, file_id, id, ? FROM file_passages WHERE id = ? AND file_id = ?',
    );
    this.insertMemoryVec = db.prepare('INSERT OR IGNORE INTO memory_vectors(memory_id, space, user_id, vec) SELECT id, ?, user_id, ? FROM memories WHERE id = ? AND memory = ?');
    // Exact nearest neighbours over the vectors of the files in scope (sqlite-vec's distance in C).
    this.nearestPassagesStmt = db.prepare<[Buffer, number, string, number], VectorHit>(
      `SELECT passage_id AS id, 1 - vec_distance_cosine(vec, ?) AS similarity FROM passage_vectors
       WHERE space = ? AND file_id IN (SELECT value FROM json_each(?)) ORDER BY similarity DESC LIMIT ?`,
    );
    this.nearestMemoriesStmt = db.prepare<{ q: Buffer; space: number; userId: number; cols: string | null; limit: number }, VectorHit>(
      `SELECT v.memory_id AS id, 1 - vec_distance_cosine(v.vec, @q) AS similarity FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
       WHERE v.space = @space AND v.user_id = @userId AND (@cols IS NULL OR m.collection_id IN (SELECT value FROM json_each(@cols))) ORDER BY similarity DESC LIMIT @limit`,
    );
    // Whether a vector search could find anything: the same scope as the two above, one index probe.
    this.anyPassageVectorStmt = db
      .prepare<[number, string], number>('SELECT EXISTS (SELECT 1 FROM passage_vectors WHERE space = ? AND file_id IN (SELECT value FROM json_each(?)))')
      .pluck();
    this.anyMemoryVectorStmt = db
      .prepare<{ space: number; userId: number; cols: string | null }, number>(
        `SELECT EXISTS (SELECT 1 FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
           WHERE v.space = @space AND v.user_id = @userId AND (@cols IS NULL OR m.collection_id IN (SELECT value FROM json_each(@cols))))`,
      )
      .pluck();
    this.passagesByIdStmt = db.prepare<[string], PassageRow>(
      `SELECT p.id AS passage_id, p.file_id, f.filename, p.ordinal, p.text FROM file_passages p JOIN files f ON f.id = p.file_id
       WHERE p.id IN (SELECT value FROM json_each(?)) AND f.status = 'completed'`,
    );
    this.countPassages = db.prepare<[], { n: number }>("SELECT coalesce(sum(passages), 0) AS n FROM files WHERE status = 'completed'");
    this.countMemories = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM memories');
    this.countPassageVecs = db.prepare<[number], { n: number }>(
      "SELECT count(*) AS n FROM passage_vectors v WHERE v.space = ? AND v.file_id IN (SELECT id FROM files WHERE status = 'completed')",
    );
    this.countMemoryVecs = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM memory_vectors WHERE space = ?');
    this.dropPassageVecs = db.prepare('DELETE FROM passage_vectors WHERE id IN (SELECT id FROM passage_vectors WHERE space != ? LIMIT 500)');
    this.dropMemoryVecs = db.prepare('DELETE FROM memory_vectors WHERE rowid IN (SELECT rowid FROM memory_vectors WHERE space != ? LIMIT 500)');
    this.dropSpaces = db.prepare('DELETE FROM embedding_spaces WHERE id != ?');
    this.conversationFilesStmt = db.prepare<[number, number, number], { id: number; file_ids: string }>(
      "SELECT id, file_ids FROM executions WHERE (root_id = ? OR id = ?) AND user_id = ? AND file_ids != '[]'",
    );
    this.wholeFileStmt = db.prepare<[number, number], { ordinal: number; text: string }>('SELECT ordinal, text FROM file_passages WHERE file_id = ? ORDER BY ordinal LIMIT ?');
    this.memoryTextsStmt = db.prepare<[string, number], { id: number; memory: string }>(
      'SELECT id, memory FROM memories WHERE id IN (SELECT value FROM json_each(?)) AND user_id = ?',
    );
    this.fileNameStmt = db.prepare<[number], { filename: string; passages: number }>("SELECT filename, passages FROM files WHERE id = ? AND status = 'completed'");
    this.filesPendingStmt = db.prepare<[string, number], { id: number }>(
      `SELECT DISTINCT p.file_id AS id FROM file_passages p
       WHERE p.file_id IN (SELECT value FROM json_each(?)) AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.passage_id = p.id AND v.space = ?)`,
    );
  }

  private readonly filesPendingStmt;

  /** Of these files, the ones with a passage that has no vector in `space` (-1: a space not made yet). */
  filesPendingVectors(fileIds: number[], space: number): number[] {
    return fileIds.length ? this.filesPendingStmt.all(JSON.stringify(fileIds), space).map((r) => r.id) : [];
  }

  /** The space of an embedder, created on first use. */
  space(key: string, dims: number): { id: number; dims: number } {
    const hit = this.spaceByKey.get(key);
    if (hit) return hit;
    this.insertSpace.run(key, dims, nowMicros());
    return this.spaceByKey.get(key)!;
  }

  findSpace(key: string): { id: number; dims: number } | null {
    return this.spaceByKey.get(key) ?? null;
  }

  pendingPassages(space: number, afterId: number, limit: number): PendingPassage[] {
    return this.pendingPassagesStmt.all(afterId, space, limit);
  }

  pendingFilePassages(space: number, fileId: number, afterOrdinal: number, limit: number): PendingPassage[] {
    return this.pendingFilePassagesStmt.all(fileId, afterOrdinal, space, limit);
  }

  pendingMemories(space: number, afterId: number, limit: number): PendingMemory[] {
    return this.pendingMemoriesStmt.all(afterId, space, limit);
  }

  savePassageVectors(space: number, rows: PendingPassage[], vecs: Float32Array[]): void {
    this.db.transaction(() => rows.forEach((r, i) => this.insertPassageVec.run(space, toBlob(vecs[i]), r.id, r.file_id))).immediate();
  }

  /** A memory edited while it was being embedded keeps no stale vector (the text must still match). */
  saveMemoryVectors(space: number, rows: PendingMemory[], vecs: Float32Array[]): void {
    this.db.transaction(() => rows.forEach((r, i) => this.insertMemoryVec.run(space, toBlob(vecs[i]), r.id, r.memory))).immediate();
  }

  nearestPassages(space: number, fileIds: number[], query: Float32Array, limit: number): VectorHit[] {
    return this.nearestPassagesStmt.all(toBlob(query), space, JSON.stringify(fileIds), limit);
  }

  nearestMemories(space: number, userId: number, query: Float32Array, limit: number, collections: number[] | null = null): VectorHit[] {
    return this.nearestMemoriesStmt.all({ q: toBlob(query), space, userId, cols: collections ? JSON.stringify(collections) : null, limit });
  }

  /** Whether `nearestPassages` with these arguments could find any vector. */
  anyPassageVector(space: number, fileIds: number[]): boolean {
    return this.anyPassageVectorStmt.get(space, JSON.stringify(fileIds)) === 1;
  }

  /** Whether `nearestMemories` with these arguments could find any vector. */
  anyMemoryVector(space: number, userId: number, collections: number[] | null = null): boolean {
    return this.anyMemoryVectorStmt.get({ space, userId, cols: collections ? JSON.stringify(collections) : null }) === 1;
  }

  /** Passages by id, of completed files only. */
  passagesById(ids: number[]): Map<number, PassageRow> {
    return new Map(this.passagesByIdStmt.all(JSON.stringify(ids)).map((r) => [r.passage_id, r]));
  }

  progress(space: number | null): { embedded: number; total: number } {
    const total = this.countPassages.get()!.n + this.countMemories.get()!.n;
    if (space === null) return { embedded: 0, total };
    return { embedded: Math.min(total, this.countPassageVecs.get(space)!.n + this.countMemoryVecs.get(space)!.n), total };
  }

  /** Removes a batch of vectors of other spaces; false once none is left (then the spaces go). */
  dropOtherSpaces(keep: number): boolean {
    const n = this.db.transaction(() => this.dropPassageVecs.run(keep).changes + this.dropMemoryVecs.run(keep).changes).immediate();
    if (n === 0) this.dropSpaces.run(keep);
    return n > 0;
  }

  /** Every file attached to any turn of a conversation (its root and the executions after it). */
  conversationFileIds(rootId: number, userId: number): number[] {
    const ids = new Set<number>();
    for (const r of this.conversationFilesStmt.all(rootId, rootId, userId)) {
      for (const id of readStoredList<number>(r.file_ids, { column: 'executions.file_ids', id: r.id }, (v) => typeof v === 'number')) ids.add(id);
    }
    return [...ids];
  }

  /** A completed file's passages in order, or null when it has more than `maxPassages`. */
  wholeFile(fileId: number, maxPassages: number): { filename: string; passages: { ordinal: number; text: string }[] } | null {
    const f = this.fileNameStmt.get(fileId);
    if (!f || f.passages > maxPassages || f.passages === 0) return null;
    return { filename: f.filename, passages: this.wholeFileStmt.all(fileId, maxPassages) };
  }

  /** The texts of memories a vector search found that the keyword search did not. */
  memoryTexts(userId: number, ids: number[]): { id: number; memory: string }[] {
    return this.memoryTextsStmt.all(JSON.stringify(ids), userId);
  }
}

/**
 * Loads sqlite-vec into the connection. Its loadable library ships per platform in npm packages
 * (sqlite-vec-linux-x64, -darwin-arm64, -windows-x64...); in a packaged Electron app it must be
 * outside the asar archive (asarUnpack: node_modules/sqlite-vec-*). If it cannot load, the one
 * function used is registered in JavaScript instead: slower, same results.
 */
export function loadVectorFunctions(db: DB, log: Logger): boolean {
  try {
    db.prepare('SELECT vec_version()').get();
    return true;
  } catch {}
  try {
    // Inside a package the library is unpacked beside app.asar (SQLite's dlopen cannot read the archive).
    db.loadExtension(sqliteVec.getLoadablePath().replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2'));
    return true;
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'sqlite-vec could not load; vector distance runs in JavaScript');
    db.function('vec_distance_cosine', { deterministic: true }, (a: unknown, b: unknown) => {
      if (!Buffer.isBuffer(a) || !Buffer.isBuffer(b) || a.length !== b.length) return null;
      let dot = 0,
        na = 0,
        nb = 0;
      for (let i = 0; i < a.length; i += 4) {
        const x = a.readFloatLE(i),
          y = b.readFloatLE(i);
        dot += x * y;
        na += x * x;
        nb += y * y;
      }
      return 1 - dot / (Math.sqrt(na * nb) || 1);
    });
    return false;
  }
}
