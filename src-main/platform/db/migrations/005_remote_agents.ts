import type { Migration } from '../migrate.js';

/**
 * Agents of a remote platform are cached as local rows (source = 'remote'), so their ids come
 * from the same sequence as local agents and can never collide with them.
 */
export const m005RemoteAgents: Migration = {
  version: 5,
  name: 'remote agents',
  up(db) {
    db.exec(`
      ALTER TABLE agents ADD COLUMN source TEXT NOT NULL DEFAULT 'local' CHECK (source IN ('local','remote'));
      ALTER TABLE agents ADD COLUMN remote_id INTEGER;
      ALTER TABLE agents ADD COLUMN remote_synced_at INTEGER;
      ALTER TABLE agents ADD COLUMN share_context INTEGER NOT NULL DEFAULT 0;
      CREATE UNIQUE INDEX agents_remote ON agents(remote_id) WHERE source = 'remote';
    `);
  },
};
