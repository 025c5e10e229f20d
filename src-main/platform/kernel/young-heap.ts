import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Keeps the young generation of this process's heaps (the main thread's and every worker's) at the
 * size it has now. V8 doubles it while a burst allocates (on Node 24 up to two 64 MB semi-spaces)
 * and the pages stay resident long after: tens of MB after 1,000 mixed requests, over 100 MB under
 * 200 streams. A long-running server allocates mostly short-lived request objects, which a small
 * young generation still collects cheaply, only more often. V8 reads this flag at each growth, so
 * setting it at run time works (--max-semi-space-size is read only when a heap is made, too late here).
 */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  // Loading the app's bundle grew it before this ran (the server's to 16 MB, used 2 MB later on):
  // once the start is over, one collection gives those pages back and from then on it stays small.
  if (newSpaceMb() > SMALL_NEW_SPACE_MB) setTimeout(() => void releaseHeapWhenQuiet(), SHRINK_AFTER_START_MS).unref();
}

/** The young generation's size (both halves), MB. */
export function newSpaceMb(): number {
  return (v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20;
}

/** What V8 starts a heap's young generation at (Node 24: 1 MB), with room for one growth. */
const SMALL_NEW_SPACE_MB = 2;
/** Past the start: the first requests are answered before the collection, not after it. */
const SHRINK_AFTER_START_MS = 3_000;

type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;
let collect: Collect | null | undefined;
let pending: Promise<void> | null = null;

/**
 * Gives the main heap's spare pages back to the system, once the app has gone quiet (a worker that
 * ended idle says so). V8 keeps the old generation at its high-water mark for minutes: 60 s after
 * `npm run bench -- load` it reserved 46 MB for 19 MB of live objects, and an ordinary collection
 * shrinks the heap without unmapping its pages. The collection V8 runs when memory is short
 * (`last-resort`, several full passes) does both; it costs tens of milliseconds, paid here when
 * nothing waits. V8 offers it through `gc()`, which a context made after --expose-gc is set has.
 * Calls in the same turn share one collection; the promise settles once it ran.
 */
export function releaseHeapWhenQuiet(): Promise<void> {
  // After the turn that noticed the quiet: whatever it let go is garbage by then. One worker's
  // quiet is not the app's: while other work runs (a file read, its vectors made) the collection
  // waits, since its passes hold the event loop for one turn of tens of milliseconds.
  // Once held off, it also waits until the work has been over for a while: the moment a file is
  // done is when its user comes back to it.
  pending ??= new Promise<void>((resolve) => {
    let heldOff = false;
    let quietSince = 0;
    const attempt = () => {
      const now = performance.now();
      if ([...busyWork].some((busy) => busy())) {
        heldOff = true;
        quietSince = now;
      }
      if (heldOff && now - quietSince < heapReleaseTiming.quietAfterWorkMs) return void setTimeout(attempt, heapReleaseTiming.recheckMs).unref();
      pending = null;
      releaseHeapNow();
      resolve();
    };
    setImmediate(attempt).unref();
  });
  return pending;
}

/** Background work under way, as its owners report it (deferHeapRelease). */
const busyWork = new Set<() => boolean>();
/** How often a release held off by busy work looks again, and how long the work must have been over (tests shorten them). */
export const heapReleaseTiming = { recheckMs: 2_000, quietAfterWorkMs: 10_000 };
let releases = 0;

/**
 * Holds releaseHeapWhenQuiet off while `busy()` says work is under way (a file being read, vectors
 * being made): the app is not quiet then, whatever worker went idle. Returns the unregistering function.
 */
export function deferHeapRelease(busy: () => boolean): () => void {
  busyWork.add(busy);
  return () => void busyWork.delete(busy);
}

/** How many releases ran in this thread (tests and benches read it). */
export function heapReleases(): number {
  return releases;
}

/**
 * The same collection, now: for a thread that is about to block in Atomics.wait (its event loop
 * never turns again) or a process that has just let go of a load's temporaries.
 */
export function releaseHeapNow(): void {
  if (collect === undefined) {
    try {
      v8.setFlagsFromString('--expose-gc');
      collect = vm.runInNewContext('gc') as Collect;
    } catch {
      collect = null;
    }
  }
  releases++;
  try {
    collect?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    // A runtime without this collection: the heap shrinks on V8's own schedule.
  }
}
