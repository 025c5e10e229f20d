import type { DB } from './connection.js';
import { writeCounter } from './write-count.js';

// A store (named so): the two statements below are the only SQL of the stamp.

/** Changes whenever the database may have: [this connection's writes, other connections' commits]. */
export type Stamp = readonly [number, number];

/** How long a read of other connections' commits is reused: another process's write shows within this. */
export const OTHERS_RECHECK_MS = 1;

/**
 * A stamp of the database's state, for caches of hot reads: a value cached at one stamp is still
 * what the tables hold while the stamp is the same. This connection's own writes are counted in
 * JS as they run (write-count.ts; a connection not opened through connect() asks total_changes(),
 * a statement that costs several µs on a request that comes alone), so a write is seen by the
 * very next read. Other connections' commits (worker threads, another process on the same data
 * dir) are counted by data_version, which takes a read lock on the file: that costs as much as the
 * read it would save, so it is read again only when OTHERS_RECHECK_MS have passed.
 */
export function changeStamp(db: DB, now: () => number = () => performance.now()): () => Stamp {
  const counter = writeCounter(db);
  const total = db.prepare<[], number>('SELECT total_changes()').pluck();
  const own = counter ? () => counter.n : () => total.get()!;
  const others = db.prepare<[], number>('PRAGMA data_version').pluck();
  let othersAt = -Infinity;
  let othersValue = 0;
  return () => {
    const t = now();
    if (t - othersAt >= OTHERS_RECHECK_MS) {
      othersValue = others.get()!;
      othersAt = t;
    }
    return [own(), othersValue];
  };
}

export const sameStamp = (a: Stamp | undefined, b: Stamp): boolean => a !== undefined && a[0] === b[0] && a[1] === b[1];
