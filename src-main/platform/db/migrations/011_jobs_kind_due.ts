import type { Migration } from '../migrate.js';

/**
 * The queue claims due jobs per kind (`kind = ? AND state = 'pending' AND run_at <= ?` in run_at
 * order). Without this index SQLite walks every due job of every kind, so a backlog of 1,000
 * webhook deliveries made each claim of another kind scan all of them, on every pump.
 */
export const m011JobsKindDue: Migration = {
  version: 11,
  name: 'jobs kind due',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS jobs_kind_due ON jobs(kind, state, run_at, id)');
  },
};
