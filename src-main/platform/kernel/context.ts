import type { DB } from '../db/connection.js';
import type { PlatformConfig } from './config.js';
import type { Logger } from './log.js';
import type { PlatformEvents } from './events.js';

/** A new install's user and workspace (the desktop app acts as this user). */
export const DEFAULT_USER_ID = 1;
export const DEFAULT_WORKSPACE_ID = 1;

/** Who is calling: resolved by the HTTP auth layer, or passed in by the desktop bridge. */
export interface Principal {
  userId: number;
  /** How the caller got in: a bearer key, the desktop bridge, or a browser-mode session. */
  via: 'key' | 'bridge' | 'session' | 'schedule';
}

/** What every service is built with. `events` carries domain events between services (e.g. an execution ended). */
export interface ServiceContext {
  db: DB;
  config: PlatformConfig;
  log: Logger;
  events: PlatformEvents;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

export function offsetOf(page: number, perPage: number): number {
  return (page - 1) * perPage;
}

/** Parses a path id: only a plain positive integer names a row; anything else names nothing. */
export function parseId(raw: string | number): number | null {
  if (typeof raw === 'number') return Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  return /^[1-9]\d{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : null;
}
