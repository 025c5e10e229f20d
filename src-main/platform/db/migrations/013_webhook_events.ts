import type { Migration } from '../migrate.js';

/**
 * Which events a webhook is subscribed to: a JSON array of event types. `[]` (every existing
 * webhook, and one created without `events`) means every event, as before.
 */
export const m013WebhookEvents: Migration = {
  version: 13,
  name: 'webhook events',
  up(db) {
    db.exec("ALTER TABLE webhooks ADD COLUMN events TEXT NOT NULL DEFAULT '[]'");
  },
};
