import type { DB } from '../db/connection.js';
import { statements } from '../db/statements.js';

/**
 * The settings table's SQL: one JSON text per key. SettingsService types the values; the reading
 * process (ingest) reads its OCR languages through this too, on its own connection.
 */
export class SettingsStore {
  private readonly sql;

  constructor(db: DB) {
    this.sql = statements(db);
  }

  /** The stored JSON text of a key, undefined when the key was never set. */
  value(key: string): string | undefined {
    return this.sql<[string], { value: string }>('SELECT value FROM settings WHERE key = ?').get(key)?.value;
  }

  put(key: string, json: string, now: number): void {
    this.sql('INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at').run(key, json, now);
  }
}
