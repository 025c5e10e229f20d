import type { Migration } from '../migrate.js';

/** When an execution's first text arrived (microseconds), for its speed (ext `timing`); older executions have none. */
export const m018ExecutionFirstToken: Migration = {
  version: 18,
  name: 'execution first token',
  up(db) {
    db.exec('ALTER TABLE executions ADD COLUMN first_token_at INTEGER');
  },
};
