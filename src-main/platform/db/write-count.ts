import type Database from 'better-sqlite3';

type DB = Database.Database;
type Method = 'run' | 'get' | 'all' | 'iterate';

const counts = new WeakMap<DB, { n: number }>();

/**
 * Counts, in JS, the statements run on a connection that may change a row: every statement SQLite
 * does not call read-only (an INSERT, UPDATE or DELETE, one with RETURNING, a trigger's cause),
 * and every exec(). Installed when the connection opens, before its first statement. A cache's
 * stamp reads the count where it read SELECT total_changes(): a statement of its own, which costs
 * several µs on a request that comes alone (cold caches), on every cached read. It moves at least
 * whenever total_changes() does (a write that changed nothing, or one rolled back, moves it too,
 * which only makes a cache look again). Pragmas change no row, as for total_changes().
 */
export function countWrites(db: DB): void {
  const count = { n: 0 };
  counts.set(db, count);
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const stmt = prepare(source) as unknown as Record<Method, (...args: unknown[]) => unknown> & { readonly: boolean };
    if (!stmt.readonly) {
      for (const name of ['run', 'get', 'all', 'iterate'] as const) {
        const method = stmt[name];
        stmt[name] = function (this: unknown, ...args: unknown[]) {
          count.n++;
          return method.apply(this, args);
        };
      }
    }
    return stmt;
  }) as unknown as DB['prepare'];
  const exec = db.exec.bind(db);
  db.exec = (source: string) => {
    count.n++;
    return exec(source);
  };
}

/** The connection's count of writes (countWrites), or undefined when it was not opened through connect(). */
export const writeCounter = (db: DB): { readonly n: number } | undefined => counts.get(db);
