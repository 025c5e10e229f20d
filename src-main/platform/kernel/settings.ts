import type { ServiceContext } from './context.js';
import { nowMicros } from './time.js';

/** A small JSON key-value store for user settings (providers, remote, localhost API...). */
export class SettingsService {
  private readonly getStmt;
  private readonly putStmt;

  constructor(private readonly ctx: ServiceContext) {
    this.getStmt = ctx.db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.putStmt = ctx.db.prepare(
      'INSERT INTO settings(key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    );
  }

  get<T>(key: string, fallback: T): T {
    const row = this.getStmt.get(key);
    if (!row) return fallback;
    try {
      return JSON.parse(row.value) as T;
    } catch {
      return fallback;
    }
  }

  set<T>(key: string, value: T): void {
    this.putStmt.run(key, JSON.stringify(value), nowMicros());
  }
}
