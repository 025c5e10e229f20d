import { Worker } from 'node:worker_threads';
import { workerEntry } from '../kernel/worker-entry.js';

/** What the watchdog writes to stderr (fd 2, synchronously) just before it kills its process. */
export const RSS_MARK = 'agent-desk-extraction: resident memory over ';

/**
 * The watchdog thread's file, resolved by the process that launches readers (built, rss-watchdog.js
 * next to the main bundle; from sources, watchdog-thread.ts bundled once) and sent to each reader
 * with its file: a reader runs from a bundle of its own, where no source sits beside it.
 */
export function rssWatchdogEntry(): Promise<string> {
  return workerEntry(import.meta.url, './watchdog-thread.ts', './rss-watchdog.js');
}

/**
 * A thread that watches the whole process's resident memory and kills the process past
 * `maxRssMb` (post a number of MB to the returned worker to change it). A thread, because the reader's own thread may be stuck in one synchronous decode
 * for seconds; the heap limit alone does not bound buffers decoded outside the JS heap. The
 * mark on fd 2 tells the parent why the process died (a SIGKILL carries no reason).
 * `entry` is the file `rssWatchdogEntry()` gave the launching process.
 */
export function startRssWatchdog(entry: string, maxRssMb: number, everyMs = 20): Worker {
  // Named: the thread shows as `rss-watchdog` in /proc and debuggers.
  const w = new Worker(entry, { name: 'rss-watchdog', workerData: { maxRssMb, everyMs, mark: RSS_MARK }, stdout: false, stderr: false });
  w.unref();
  return w;
}
