import type { Migration } from '../migrate.js';

/**
 * Conversations that branch: `parent_id` is the execution whose answer a turn follows (NULL for
 * a session's first turn, and for rows written before branches existed, which follow the
 * previous execution of their session). Executions sharing a parent are alternatives (a
 * regenerated answer, an edited message). `session_titles` holds titles users gave sessions.
 */
export const m007SessionBranches: Migration = {
  version: 7,
  name: 'session branches and titles',
  up(db) {
    db.exec(`
      ALTER TABLE executions ADD COLUMN parent_id INTEGER;
      ALTER TABLE executions ADD COLUMN branched INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE session_titles (
        user_id INTEGER NOT NULL,
        root_id INTEGER NOT NULL,
        title TEXT NOT NULL,
        PRIMARY KEY (user_id, root_id)
      );
    `);
  },
};
