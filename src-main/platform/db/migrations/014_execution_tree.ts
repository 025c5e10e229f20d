import type { Migration } from '../migrate.js';

/**
 * Every execution knows its session and the turn it follows: rows from before root_id was always
 * written get their own id as root, rows from before branches (migration 7) get as parent the
 * previous execution of their session, which is what they followed. The `branched` flag that told
 * the two kinds apart goes. A writer that leaves root_id out starts a session: the trigger makes
 * the row its own root, so root_id is never NULL.
 */
export const m014ExecutionTree: Migration = {
  version: 14,
  name: 'execution roots and parents filled',
  up(db) {
    db.exec(`
      UPDATE executions SET root_id = id WHERE root_id IS NULL;
      UPDATE executions SET parent_id = (
        SELECT max(p.id) FROM executions p WHERE p.root_id = executions.root_id AND p.user_id = executions.user_id AND p.id < executions.id
      ) WHERE branched = 0;
      ALTER TABLE executions DROP COLUMN branched;
      CREATE TRIGGER executions_root_default AFTER INSERT ON executions WHEN NEW.root_id IS NULL
      BEGIN
        UPDATE executions SET root_id = NEW.id WHERE id = NEW.id;
      END;
    `);
  },
};
