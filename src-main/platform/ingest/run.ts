import { fork } from 'node:child_process';
import type { ExtractionInput, ExtractionResult } from './types.js';
import { limitsFor, type ExtractionLimits } from './limits.js';
import { RSS_MARK } from './watchdog.js';
import { workerEntry } from '../kernel/worker-entry.js';

/**
 * Runs one extraction in its own child process (worker.ts), not a thread: a decode bomb can
 * take a process's memory past any heap limit, and only a process can be killed whatever it is
 * doing. The child gets a resident-memory limit (its watchdog thread kills it past it), a heap
 * limit, and a wall-time budget scaled by the file's size (the parent kills it past it); each
 * ends the file `failed` with a reason the user can act on.
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

export function runExtraction(input: ExtractionInput, opts: RunOptions = {}): Promise<ExtractionResult> {
  // Built, worker.js sits next to the main bundle (electron.vite.config.ts input `worker`).
  return workerEntry(import.meta.url, './worker.ts', './worker.js').then(
    (entry) =>
      new Promise((resolve, reject) => {
        if (opts.signal?.aborted) return reject(new ExtractionAborted('aborted'));
        start(entry, input, opts, resolve, reject);
      }),
  );
}

const fmtTime = (ms: number) => (ms < 120_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`);

function start(entry: string, input: ExtractionInput, opts: RunOptions, resolve: (r: ExtractionResult) => void, reject: (e: Error) => void): void {
  const limits: ExtractionLimits = limitsFor(input.bytes, { timeoutMs: opts.timeoutMs, maxRssMb: opts.maxRssMb });
  const heapMb = Math.min(opts.maxHeapMb ?? limits.maxRssMb, limits.maxRssMb);
  const child = fork(entry, [], {
    // Never the parent's flags (a test runner's loaders, an inspector port).
    execArgv: [`--max-old-space-size=${heapMb}`],
    // Inside Electron, the executable runs as plain Node for this child.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'json',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    stderr = (stderr + s).slice(-4096);
  });
  let done = false;
  let answer: ExtractionResult | null = null;
  const finish = (fn: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
  child.on('message', (m: ExtractionResult) => {
    answer = m;
  });
  child.on('error', (err) => finish(() => resolve({ ok: false, code: 'crashed', error: `The reader could not start: ${err.message}` })));
  // 'close' (not 'exit'): stderr is complete then, with the watchdog's mark if it fired.
  child.on('close', (code, signal) =>
    finish(() => {
      if (answer) return resolve(answer);
      const rss = stderr.indexOf(RSS_MARK);
      if (rss >= 0 || /heap limit|out of memory|Allocation failed/i.test(stderr)) {
        return resolve({
          ok: false,
          code: 'too_large',
          error: `Reading this file needed more than ${limits.maxRssMb} MB of memory and was stopped; it may be damaged or built to exhaust memory.`,
        });
      }
      resolve({ ok: false, code: 'crashed', error: `The reader stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}).` });
    }),
  );
  child.send({ ...input, limits });
}
