import type { Migration } from '../migrate.js';

/**
 * Session search no longer indexes an execution in the transaction that creates it: that
 * commit is on the way to a streamed answer's first text, and an FTS5 insert makes it write a new
 * index segment (about half of its cost). A running execution's text is indexed with its first
 * progress write instead (the executions store), a finished one by `session_search_finish`.
 */
export const m020SessionSearchOffStart: Migration = {
  version: 20,
  name: 'session search off the execution start',
  up(db) {
    db.exec('DROP TRIGGER IF EXISTS session_search_insert');
  },
};
