import type { Migration } from '../migrate.js';

/**
 * Whether a collection's memories enter a run's context when the run names no collections (ext
 * `in_context`). Collections an archive brought start out of it; every other one is in.
 */
export const m019CollectionInContext: Migration = {
  version: 19,
  name: 'collection in context',
  up(db) {
    db.exec('ALTER TABLE memory_collections ADD COLUMN in_context INTEGER NOT NULL DEFAULT 1');
  },
};
