import type { Migration } from '../migrate.js';

/**
 * Identical uploads are one stored file: an upload is looked up by its content hash within its
 * workspace before new bytes are stored, so the lookup needs an index.
 */
export const m010FileContentHash: Migration = {
  version: 10,
  name: 'file content hash',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS files_workspace_sha256 ON files(workspace_id, sha256, bytes)');
  },
};
