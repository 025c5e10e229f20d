import type { ServiceContext } from './context.js';
import { nowMicros } from './time.js';
import { SettingsStore } from './settings-store.js';
import { readStoredJson } from './stored-json.js';

/**
 * Every settings key with the type of its value. A module declares its own keys by augmenting
 * this interface (`declare module '.../kernel/settings.js'`), so the kernel imports no module and
 * a misspelt key or a wrong value is a compile error.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface SettingsMap {}

/** A small JSON key-value store for user settings (providers, remote, localhost API...). */
export class SettingsService {
  private readonly store: SettingsStore;

  constructor(ctx: ServiceContext) {
    this.store = new SettingsStore(ctx.db);
  }

  get<K extends keyof SettingsMap>(key: K, fallback: SettingsMap[K]): SettingsMap[K] {
    const value = this.store.value(key);
    if (value === undefined) return fallback;
    return readStoredJson<SettingsMap[K]>(value, { column: 'settings.value', id: key }, fallback);
  }

  set<K extends keyof SettingsMap>(key: K, value: SettingsMap[K]): void {
    this.store.put(key, JSON.stringify(value), nowMicros());
  }
}
