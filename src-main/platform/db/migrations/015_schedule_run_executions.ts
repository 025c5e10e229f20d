import type { Migration } from '../migrate.js';

/**
 * Finds the schedule run of an execution by its id: the session list marks (and can hide) the
 * sessions a schedule started, and deleting executions sets their runs' `execution_id` to null
 * without reading the whole table.
 */
export const m015ScheduleRunExecutions: Migration = {
  version: 15,
  name: 'schedule run executions',
  up(db) {
    db.exec('CREATE INDEX schedule_runs_execution ON schedule_runs(execution_id)');
  },
};
