import type { Migration } from '../migrate.js';

/**
 * Embeddings beside the FTS5 indexes (hybrid retrieval). Vectors are float32 blobs compared with
 * sqlite-vec's distance functions; each embedder gets its own "space" (a vector of one model
 * means nothing to another), so switching embedders fills a new space while the old one, or
 * bm25 alone, keeps answering.
 */
export const m009RetrievalVectors: Migration = {
  version: 9,
  name: 'retrieval_vectors',
  up(db) {
    db.exec(`
      CREATE TABLE embedding_spaces (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        dims INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE passage_vectors (
        id INTEGER PRIMARY KEY,
        space INTEGER NOT NULL,
        file_id INTEGER NOT NULL,
        passage_id INTEGER NOT NULL,
        vec BLOB NOT NULL
      );
      -- (passage_id, space): the lookup when embedding, and the delete when a passage goes.
      CREATE UNIQUE INDEX passage_vectors_passage ON passage_vectors(passage_id, space);
      -- A search scans the vectors of the files in scope only.
      CREATE INDEX passage_vectors_file ON passage_vectors(space, file_id);
      -- Passage ids can be reused after a purge: a vector must never outlive its passage.
      CREATE TRIGGER passage_vectors_ad AFTER DELETE ON file_passages BEGIN
        DELETE FROM passage_vectors WHERE passage_id = old.id;
      END;
      CREATE TABLE memory_vectors (
        memory_id INTEGER NOT NULL,
        space INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        vec BLOB NOT NULL,
        PRIMARY KEY (memory_id, space)
      );
      CREATE INDEX memory_vectors_user ON memory_vectors(space, user_id);
      CREATE TRIGGER memory_vectors_ad AFTER DELETE ON memories BEGIN
        DELETE FROM memory_vectors WHERE memory_id = old.id;
      END;
      -- An edited memory is embedded again.
      CREATE TRIGGER memory_vectors_au AFTER UPDATE OF memory ON memories BEGIN
        DELETE FROM memory_vectors WHERE memory_id = old.id;
      END;
    `);
  },
};
