import type { Migration } from '../migrate.js';

/**
 * Webhook delivery (CONTRACT.md "Webhooks"): one event row per happening (its body is signed and
 * sent as is on every attempt), one delivery per event and webhook, one row per attempt. The
 * retry schedule itself lives in the jobs table (a delivery's `job_id`), so a restart resumes it.
 */
export const m004WebhookDeliveries: Migration = {
  version: 4,
  name: 'webhook_deliveries',
  up(db) {
    db.exec(`
      CREATE TABLE webhook_events (
        id INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE webhook_deliveries (
        id INTEGER PRIMARY KEY,
        webhook_id INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id INTEGER NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','succeeded','failed','canceled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,
        job_id INTEGER,
        cancel_reason TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, id);
      CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
      CREATE TABLE webhook_delivery_attempts (
        id INTEGER PRIMARY KEY,
        delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        status_code INTEGER,
        latency_ms INTEGER NOT NULL,
        error TEXT,
        response_body TEXT,
        created_at INTEGER NOT NULL,
        UNIQUE (delivery_id, attempt)
      );
      -- The jobs queue's laneLimit claim (one lane per webhook) seeks lanes and their due jobs here.
      CREATE INDEX jobs_kind_lane ON jobs(kind, state, lane, run_at, id);
    `);
  },
};
