import type { ServiceContext } from './context.js';
import { nowMicros } from './time.js';

/**
 * Every settings key with the type of its value. A module declares its own keys by augmenting
 * this interface (`declare module '.../kernel/settings.js'`), so the kernel imports no module and
 * a misspelt key or a wrong value is a compile error.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SettingsMap {}

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

  get<K extends keyof SettingsMap>(key: K, fallback: SettingsMap[K]): SettingsMap[K] {
    const row = this.getStmt.get(key);
    if (!row) return fallback;
    try {
      return JSON.parse(row.value) as SettingsMap[K];
    } catch {
      return fallback;
    }
  }

  set<K extends keyof SettingsMap>(key: K, value: SettingsMap[K]): void {
    this.putStmt.run(key, JSON.stringify(value), nowMicros());
  }
}
