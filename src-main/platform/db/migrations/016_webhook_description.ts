import type { Migration } from '../migrate.js';

/** A webhook's own note of what it is for (ext `description`), editable in place; existing ones have none. */
export const m016WebhookDescription: Migration = {
  version: 16,
  name: 'webhook description',
  up(db) {
    db.exec('ALTER TABLE webhooks ADD COLUMN description TEXT');
  },
};
