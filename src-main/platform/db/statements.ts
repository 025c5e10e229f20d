import type { Statement } from 'better-sqlite3';
import type { DB } from './connection.js';

const caches = new WeakMap<DB, Map<string, Statement>>();

/**
 * Prepares each SQL text once per database and hands the same statement back after that, so a
 * store can keep its SQL where it is used without compiling it on every call.
 */
export function statements(db: DB): <P extends unknown[] | object = unknown[], R = unknown>(text: string) => Statement<P, R> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const c = cache;
  return <P extends unknown[] | object = unknown[], R = unknown>(text: string) => {
    let st = c.get(text);
    if (!st) c.set(text, (st = db.prepare(text)));
    return st as unknown as Statement<P, R>;
  };
}
