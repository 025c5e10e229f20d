import type { DB } from './connection.js';
import { migrations } from './migrations/index.js';
import { runSteps, type Steps } from '../kernel/steps.js';

export class DatabaseFromTheFutureError extends Error {
  constructor(found: number, known: number) {
    super(`This database is at schema version ${found}, but this Agent Desk only knows up to ${known}. Update Agent Desk, or point it at another data dir.`);
    this.name = 'DatabaseFromTheFutureError';
  }
}

export interface Migration {
  version: number;
  name: string;
  up(db: DB): void;
}

export function latestVersion(list: Migration[] = migrations): number {
  return list.reduce((max, m) => Math.max(max, m.version), 0);
}

/**
 * Brings the schema to `target` (default: the newest), one migration per transaction, each
 * bumping `PRAGMA user_version` inside its own transaction so a crash leaves a consistent version.
 * `beforeMigrate` runs once when there is anything to do (the automatic backup hooks in here).
 */
export function migrate(db: DB, opts: MigrateOptions = {}): number {
  return runSteps(migrateSteps(db, opts));
}

export interface MigrateOptions {
  target?: number;
  list?: Migration[];
  beforeMigrate?: (from: number) => void;
}

/** `migrate`, pausable after each migration. */
export function* migrateSteps(db: DB, opts: MigrateOptions = {}): Steps<number> {
  const list = [...(opts.list ?? migrations)].sort((a, b) => a.version - b.version);
  // Numbers must run 1..N without gaps, or a database past the gap would skip a late-added one.
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migrations must be numbered 1..N without gaps; found version ${m.version} at position ${i + 1}.`);
  });
  const known = latestVersion(list);
  const target = opts.target ?? known;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > known) throw new DatabaseFromTheFutureError(current, known);
  const pending = list.filter((m) => m.version > current && m.version <= target);
  if (pending.length && current > 0) opts.beforeMigrate?.(current);
  for (const m of pending) {
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
    yield;
  }
  return db.pragma('user_version', { simple: true }) as number;
}
