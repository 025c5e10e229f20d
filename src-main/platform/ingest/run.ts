import type { ExtractionInput, ExtractionResult } from './types.js';
import { limitsFor, type ExtractionLimits } from './limits.js';
import { RSS_MARK, rssWatchdogEntry } from './watchdog.js';
import { workerEntry } from '../kernel/worker-entry.js';
import { spawnReader, type SpawnedChild } from './spawned.js';

/**
 * Runs each extraction in a child process (worker.ts), not a thread: a decode bomb can take a
 * process's memory past any heap limit, and only a process can be killed whatever it is doing.
 * The child gets a resident-memory limit (its watchdog thread kills it past it), a heap limit,
 * and a wall-time budget scaled by the file's size (the parent kills it past it); each ends the
 * file `failed` with a reason the user can act on. A child that finished a file in good health
 * reads the next one (up to two wait, for 30 s); one that was killed is never reused. Children
 * start through `spawnReader` (spawned.ts), under Node and Electron alike, never forked by the
 * app's own process.
 */

export interface RunOptions {
  /** Upper bound of the wall-time budget (which is otherwise scaled by the file's size). */
  timeoutMs?: number;
  /** Heap ceiling of the reading process (its resident-memory limit is set by `limitsFor`). */
  maxHeapMb?: number;
  /** Resident-memory ceiling of the reading process, overriding `limitsFor`. */
  maxRssMb?: number;
  signal?: AbortSignal;
}

export class ExtractionAborted extends Error {}

export async function runExtraction(input: ExtractionInput, opts: RunOptions = {}): Promise<ExtractionResult> {
  // Built, worker.js sits next to the main bundle (electron.vite.config.ts input `worker`).
  const entry = await workerEntry(import.meta.url, './worker.ts', './worker.js');
  const watchdog = await rssWatchdogEntry();
  if (opts.signal?.aborted) throw new ExtractionAborted('aborted');
  const limits: ExtractionLimits = limitsFor(input.bytes, { timeoutMs: opts.timeoutMs, maxRssMb: opts.maxRssMb });
  const reader = await takeReader(entry, Math.min(opts.maxHeapMb ?? limits.maxRssMb, limits.maxRssMb));
  if (opts.signal?.aborted) {
    release(reader, 0);
    throw new ExtractionAborted('aborted');
  }
  return new Promise((resolve, reject) => start(reader, { ...input, watchdog }, limits, opts, resolve, reject));
}

const fmtTime = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`);

/** A reading process, kept between files while it stays healthy (starting one costs Node's boot). */
interface Reader {
  child: SpawnedChild;
  heapMb: number;
  jobs: number;
  idleTimer?: NodeJS.Timeout;
}

const idle: Reader[] = [];
const MAX_IDLE = 2;
const IDLE_MS = 30_000;
/** Files a reader reads before it is replaced anyway; the resident-memory check below retires a reader that grew. */
const MAX_JOBS = 1000;
/** A reader that grew past this after a file (caches, fragmented heap) is not reused. */
const RETIRE_RSS = 256 * 1024 * 1024;

async function startReader(entry: string, heapMb: number): Promise<Reader> {
  const child = await spawnReader(entry, [`--max-old-space-size=${heapMb}`]);
  const reader: Reader = { child, heapMb, jobs: 0 };
  // An idle reader that dies is simply dropped.
  child.on('close', () => {
    const i = idle.indexOf(reader);
    if (i >= 0) idle.splice(i, 1);
  });
  return reader;
}

function takeReader(entry: string, heapMb: number): Promise<Reader> {
  const i = idle.findIndex((r) => r.heapMb === heapMb && r.child.connected);
  if (i < 0) return startReader(entry, heapMb);
  const [reader] = idle.splice(i, 1);
  clearTimeout(reader.idleTimer);
  reader.child.ref();
  return Promise.resolve(reader);
}

/** Keeps a healthy reader for the next file (without holding the app open), else ends it. */
function release(reader: Reader, rss: number): void {
  if (!reader.child.connected || rss > RETIRE_RSS || reader.jobs >= MAX_JOBS || idle.length >= MAX_IDLE) {
    reader.child.kill();
    return;
  }
  reader.child.unref();
  reader.idleTimer = setTimeout(() => reader.child.kill(), IDLE_MS);
  reader.idleTimer.unref();
  idle.push(reader);
}

function start(reader: Reader, input: ExtractionInput, limits: ExtractionLimits, opts: RunOptions, resolve: (r: ExtractionResult) => void, reject: (e: Error) => void): void {
  const { child } = reader;
  reader.jobs++;
  let done = false;
  const finish = (fn: () => void, keep?: number) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    child.off('message', onMessage);
    child.off('error', onError);
    child.off('close', onClose);
    if (keep !== undefined) release(reader, keep);
    else if (child.exitCode === null && child.signalCode === null) child.kill();
    fn();
  };
  const timer = setTimeout(
    () =>
      finish(() =>
        resolve({
          ok: false,
          code: 'timeout',
          error: `Reading this file took longer than ${fmtTime(limits.timeoutMs)} (the budget for its size) and was stopped; it may be damaged or built to be slow to read.`,
        }),
      ),
    limits.timeoutMs,
  );
  const onAbort = () => finish(() => reject(new ExtractionAborted('aborted')));
  opts.signal?.addEventListener('abort', onAbort);
  const onMessage = (m: { result: ExtractionResult; rss: number }) => finish(() => resolve(m.result), m.rss);
  const onError = (err: Error) => finish(() => resolve({ ok: false, code: 'crashed', error: `The reader could not start: ${err.message}` }));
  // 'close' (not 'exit'): stderr is complete then, with the watchdog's mark if it fired.
  const onClose = (code: number | null, signal: NodeJS.Signals | null) =>
    finish(() => {
      if (child.stderr.includes(RSS_MARK) || /heap limit|out of memory|Allocation failed/i.test(child.stderr)) {
        return resolve({
          ok: false,
          code: 'too_large',
          error: `Reading this file needed more than ${limits.maxRssMb} MB of memory and was stopped; it may be damaged or built to exhaust memory.`,
        });
      }
      resolve({ ok: false, code: 'crashed', error: `The reader stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}).` });
    });
  child.on('message', onMessage);
  child.on('error', onError);
  child.on('close', onClose);
  child.send({ ...input, limits });
}
