import type { Migration } from '../migrate.js';

/**
 * Scheduled runs of agents. A run row is written, with the schedule's next time, in the
 * transaction that finds it due (unique per schedule and due time, so a tick repeated after a
 * crash adds nothing); its execution id is written in the transaction that creates the execution.
 */
export const m012Schedules: Migration = {
  version: 12,
  name: 'schedules',
  up(db) {
    db.exec(`
      CREATE TABLE schedules (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        agent_id INTEGER NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
        name TEXT,
        cron TEXT,
        every_minutes INTEGER,
        timezone TEXT NOT NULL DEFAULT 'UTC',
        answers TEXT NOT NULL DEFAULT '{}',
        messages TEXT NOT NULL DEFAULT '[]',
        enabled INTEGER NOT NULL DEFAULT 1,
        next_run_at INTEGER,
        last_run_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        CHECK ((cron IS NULL) <> (every_minutes IS NULL))
      );
      CREATE INDEX schedules_due ON schedules(enabled, next_run_at);
      CREATE INDEX schedules_user ON schedules(user_id, id);
      CREATE TABLE schedule_runs (
        id INTEGER PRIMARY KEY,
        schedule_id INTEGER NOT NULL REFERENCES schedules(id) ON DELETE CASCADE,
        due_at INTEGER NOT NULL,
        execution_id INTEGER REFERENCES executions(id) ON DELETE SET NULL,
        error TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (schedule_id, due_at)
      );
      CREATE INDEX schedule_runs_schedule ON schedule_runs(schedule_id, id);
    `);
  },
};
