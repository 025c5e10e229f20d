import type { Migration } from '../migrate.js';

/**
 * Executions (agent responses). `agent_id` has no foreign key on purpose: an execution outlives
 * its agent (the spec's `template_id` stays readable after the agent is deleted).
 * `turns` holds the conversation turns this request added (JSON [{role, content}]); a session's
 * transcript is the turns and outputs of its succeeded executions in id order.
 */
export const m003Executions: Migration = {
  version: 3,
  name: 'executions',
  up(db) {
    db.exec(`
      CREATE TABLE executions (
        id INTEGER PRIMARY KEY,
        agent_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        root_id INTEGER,
        status TEXT NOT NULL CHECK (status IN ('starting','running','succeeded','failed','canceled')),
        input TEXT NOT NULL DEFAULT '',
        output TEXT NOT NULL DEFAULT '',
        error_message TEXT,
        error_code TEXT,
        credits REAL,
        model TEXT,
        provider TEXT,
        answers TEXT NOT NULL DEFAULT '{}',
        turns TEXT NOT NULL DEFAULT '[]',
        file_ids TEXT NOT NULL DEFAULT '[]',
        context TEXT NOT NULL DEFAULT '{}',
        output_file_id INTEGER,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE INDEX executions_root ON executions(root_id, id);
      CREATE INDEX executions_user ON executions(user_id, id);
      CREATE INDEX executions_agent ON executions(agent_id, id);
      CREATE INDEX executions_live ON executions(status) WHERE status IN ('starting','running');
    `);
  },
};
