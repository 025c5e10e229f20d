import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DB } from './connection.js';
import type { Logger } from '../kernel/log.js';
import { workerEntry } from '../kernel/worker-entry.js';
import { IdleEnd, workerIdleMs, type IdleClock } from '../kernel/idle-end.js';

/**
 * WAL checkpoints in a worker thread instead of on the event loop.
 *
 * SQLite's automatic checkpoint runs inside the commit that pushes the WAL past 1,000 pages, on
 * whichever connection made it: copying those pages into the database file and syncing it
 * stopped HTTP, SSE and IPC for tens of milliseconds (hundreds on a busy disk) every few hundred
 * commits, and far more often while extraction processes fill the WAL with passages. Here the
 * main connection's automatic checkpoint is turned off and a thread with its own connection runs
 * a PASSIVE checkpoint (which never waits for readers or writers, nor blocks them) every
 * `everyMs`. If the thread cannot start or dies, the automatic checkpoint comes back, so the WAL
 * never grows without bound.
 *
 * With `startAtPages`, the thread (its isolate and connection, ~14 MB resident) starts only once the
 * WAL holds that many pages; meanwhile the automatic checkpoint stays on, but past four times that
 * (never below SQLite's 1,000 pages), so that it does not fire on the main connection before the
 * thread could start: a server that only reads, or writes a few MB (a thousand mixed requests
 * write ~2 MB), never needs it, and a WAL of a few MB costs disk, not memory. Once the WAL has not changed for the workers' idle
 * period (AGENT_DESK_WORKER_IDLE_S, 60 s), the thread ends (the automatic checkpoint is back on)
 * and the next write starts it again: a quiet server does not keep its isolate.
 */

/** How often the thread checkpoints; a WAL page costs nothing to leave for one more round. */
export const CHECKPOINT_EVERY_MS = 200;
/** SQLite's default automatic checkpoint (pages), restored when the thread is not running. */
const AUTO_PAGES = 1000;
/** When the platform starts the thread: past ~4 MB of WAL, which a start and a burst of a thousand requests stay under. */
export const START_AT_PAGES = 1024;
/** The automatic checkpoint while the thread waits for the WAL to grow: well past where the thread starts. */
export const waitingAutoPages = (startAt: number) => Math.max(AUTO_PAGES, 4 * startAt);
/** How often the WAL's size is looked at while the thread waits for it to grow (one stat). */
const WATCH_EVERY_MS = 500;

export interface CheckpointerOptions {
  everyMs?: number;
  /** Start the thread once the WAL holds this many pages (0, the default: at once). */
  startAtPages?: number;
  /** How often the WAL's size is looked at until then. */
  watchEveryMs?: number;
  /** The thread ends after the WAL has not changed for this long (ms; 0 never): the workers' idle period by default. */
  idleMs?: number;
  clock?: IdleClock;
}

export interface Checkpointer {
  /**
   * `waiting`: no thread yet, the WAL is small (automatic checkpoint on); `active`: checkpoints run
   * in the thread; `failed`: they are back on the main connection.
   */
  readonly state: 'waiting' | 'starting' | 'active' | 'failed' | 'stopped';
  /** Stops the thread; the automatic checkpoint is back on the main connection before it resolves. */
  stop(): Promise<void>;
  /** The thread's V8 heap in bytes (in use, reserved) and its young generation's limit in MB, null when no thread runs. For tests. */
  threadHeap(): Promise<{ used: number; total: number; youngMb: number } | null>;
}

export function startCheckpointer(db: DB, log: Logger, opts: CheckpointerOptions = {}): Checkpointer {
  let state: Checkpointer['state'] = 'waiting';
  const fallBack = (why: string, err?: unknown) => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
    if (state === 'stopped') return;
    state = 'failed';
    log.warn({ err }, `WAL checkpoints are back on the main thread: ${why}`);
  };
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();
  const watchEvery = opts.watchEveryMs ?? WATCH_EVERY_MS;
  const walFile = `${db.name}-wal`;
  const walChanged = () => {
    try {
      return fs.statSync(walFile).mtimeMs;
    } catch {
      return -1;
    }
  };
  // While the thread runs, a change of the WAL's time (a write) pushes its idle end back.
  let activity: NodeJS.Timeout | null = null;
  const idle = new IdleEnd({ ms: opts.idleMs ?? workerIdleMs(), clock: opts.clock, end: () => rest() });
  const stopActivity = () => {
    if (activity) clearInterval(activity);
    activity = null;
    idle.cancel();
  };

  const start = () => {
    state = 'starting';
    // The thread's file (bundled once from the sources in development and tests).
    workerEntry(import.meta.url, './checkpoint-thread.ts', './checkpoint.js').then(launch, (err) => fallBack('the checkpoint thread could not start', err));
  };
  const launch = (entry: string) => {
    if (state !== 'starting') return;
    let w: Worker;
    try {
      w = new Worker(entry, {
        // Named: the thread shows as `checkpointer` in /proc and debuggers.
        name: 'checkpointer',
        // It allocates next to nothing (a pragma every `everyMs`): V8's default young generation
        // (16 MB of semi-spaces) would stay reserved for it, ~5 MB of it resident.
        resourceLimits: { maxYoungGenerationSizeMb: 1 },
        workerData: { file: db.name, everyMs: opts.everyMs ?? CHECKPOINT_EVERY_MS },
        stdout: false,
        stderr: false,
      });
    } catch (err) {
      fallBack('the checkpoint thread could not start', err);
      return;
    }
    worker = w;
    // A thread that only checkpoints must not keep a CLI or a test process alive.
    w.unref();
    exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    w.on('message', (m) => {
      if (m !== 'ready' || state !== 'starting' || !db.open || worker !== w) return;
      db.pragma('wal_autocheckpoint = 0');
      state = 'active';
      let last = walChanged();
      idle.touch();
      activity = setInterval(() => {
        const now = walChanged();
        if (now !== last) idle.touch();
        last = now;
      }, watchEvery);
      activity.unref();
    });
    // A thread let go when idle is no longer this checkpointer's to report.
    w.once('error', (err) => worker === w && fallBack('the checkpoint thread failed', err));
    w.once('exit', () => {
      if (worker === w && (state === 'active' || state === 'starting')) fallBack('the checkpoint thread exited');
    });
  };

  let watch: NodeJS.Timeout | null = null;
  /** Starts the thread once `due()` (looked at every watchEvery ms while waiting). */
  const startWhen = (due: () => boolean) => {
    if (due()) return start();
    watch = setInterval(() => {
      if (state !== 'waiting' || !due()) return;
      clearInterval(watch!);
      watch = null;
      start();
    }, watchEvery);
    watch.unref();
  };

  /** Idle: the thread ends, the automatic checkpoint is back, and the next write starts a thread again. */
  const rest = () => {
    const w = worker;
    if (state !== 'active' || !w) return;
    worker = null;
    stopActivity();
    if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
    state = 'waiting';
    w.postMessage('stop');
    const timer = setTimeout(() => void w.terminate(), 1000);
    timer.unref();
    void exited.then(() => clearTimeout(timer));
    const since = walChanged();
    startWhen(() => walChanged() !== since);
  };

  const startAt = opts.startAtPages ?? 0;
  if (startAt <= 0) start();
  else {
    if (db.open) db.pragma(`wal_autocheckpoint = ${waitingAutoPages(startAt)}`);
    // A WAL frame is a page and a 24-byte header, after the file's own 32-byte header.
    const frame = (db.pragma('page_size', { simple: true }) as number) + 24;
    startWhen(() => {
      try {
        return (fs.statSync(walFile).size - 32) / frame >= startAt;
      } catch {
        return false;
      }
    });
  }

  return {
    get state() {
      return state;
    },
    async threadHeap() {
      const w = worker;
      if (!w || state !== 'active') return null;
      const h = await w.getHeapStatistics();
      return { used: h.used_heap_size, total: h.total_heap_size, youngMb: w.resourceLimits?.maxYoungGenerationSizeMb ?? -1 };
    },
    async stop() {
      if (state === 'stopped') return;
      if (watch) clearInterval(watch);
      watch = null;
      stopActivity();
      const w = worker;
      if (!w) {
        // Never started (or ended idle): the automatic checkpoint is on, back at SQLite's own period.
        if (db.open) db.pragma(`wal_autocheckpoint = ${AUTO_PAGES}`);
        state = 'stopped';
        await exited;
        return;
      }
      state = 'stopped';
      fallBack('stopping');
      w.postMessage('stop');
      // Its connection closes before the main one runs its final checkpoint; a thread stuck past a second is ended.
      const timer = setTimeout(() => void w.terminate(), 1000);
      await exited;
      clearTimeout(timer);
    },
  };
}
