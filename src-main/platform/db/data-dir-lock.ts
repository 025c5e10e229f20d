import path from 'node:path';
import { tighten } from './private-files.js';
import { openLockFile } from './connection.js';

export interface DataDirLock {
  /** true for the one process that owns the data dir's background work (can turn true later: see `watch`). */
  readonly primary: boolean;
  /**
   * A secondary process becomes the heir: it tries to take the lock every `everyMs` and, once it
   * has it (the owner exited or was killed), calls `onAcquired` once. Does nothing for the primary.
   */
  watch(onAcquired: () => void, everyMs?: number): void;
  release(): void;
}

/** How often a secondary process tries to take over the lock. */
export const TAKEOVER_POLL_MS = 1_000;

/**
 * Decides which process owns a data dir's background work (job queue, start-up recovery, temp
 * file clean-up). The desktop app, `npm run serve`, `npm run keys` and `npm run mcp` may open
 * the same data dir at once; only the first runs that work, the others only read and write
 * rows. The lock is an EXCLUSIVE transaction held on a small SQLite file: the OS drops it when
 * the holder exits, also on `kill -9`, so a crash never leaves a stale lock (unlike a pid file),
 * and a process still running takes it over (`watch`) so background work always has an owner.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = path.join(dataDir, 'agent-desk.lock');
  const db = openLockFile(file);
  tighten(file, 0o600);
  let primary = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  const tryTake = (): boolean => {
    try {
      db.exec('BEGIN EXCLUSIVE');
      primary = true;
      return true;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
      return false;
    }
  };

  try {
    tryTake();
  } catch (err) {
    db.close();
    throw err;
  }

  return {
    get primary() {
      return primary;
    },
    watch(onAcquired, everyMs = TAKEOVER_POLL_MS) {
      if (primary || closed || timer) return;
      timer = setInterval(() => {
        let taken = false;
        try {
          taken = tryTake();
        } catch {
          // An unreadable lock file: stay secondary, try again next time.
        }
        if (!taken) return;
        clearInterval(timer!);
        timer = null;
        onAcquired();
      }, everyMs);
      // The heir's polling must not keep a CLI process alive.
      timer.unref();
    },
    release() {
      if (closed) return;
      closed = true;
      if (timer) clearInterval(timer);
      timer = null;
      if (primary) {
        try {
          db.exec('ROLLBACK');
        } catch {}
      }
      primary = false;
      db.close();
    },
  };
}
