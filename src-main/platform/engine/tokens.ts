import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { IdleEnd, workerIdleMs, type IdleClock } from '../kernel/idle-end.js';
import { releaseHeapWhenQuiet } from '../kernel/young-heap.js';
import { workerEntry } from '../kernel/worker-entry.js';

/**
 * Token counting (o200k, gpt-tokenizer), bounded and kept off the event loop's critical path.
 *
 * - The tokenizer lives in a worker thread: importing it costs ~0.4 s of parsing that would
 *   otherwise stop HTTP, SSE and IPC. It starts when first needed (`tokenCounter()`, which an
 *   execution calls as it starts), not with the server: its thread and tables take ~40 MB that an
 *   idle server does without. Until it is ready, counts are a safe over-estimate. It ends after an
 *   idle period (AGENT_DESK_WORKER_IDLE_S, 60 s by default) and the next execution starts it again.
 * - Callers need a synchronous count (context building sums many small texts), so a count is a
 *   synchronous round trip through shared memory (Atomics.wait), not a message. The thread's side is
 *   tokenizer-thread.ts (built as tokenizer.js, started through kernel/worker-entry.ts).
 * - Never quadratic: BPE is quadratic in the length of one pre-token, so no piece handed to it is
 *   longer than CHUNK_CHARS (runs without spaces are cut), and a text longer than EXACT_MAX_CHARS
 *   is counted on its first EXACT_MAX_CHARS and scaled: every count costs at most ~5 ms.
 */

export type Counter = (text: string) => number;

/** Longest text counted exactly; longer ones are scaled from their head. */
export const EXACT_MAX_CHARS = 32_768;
/** Longest piece handed to BPE at once. */
export const CHUNK_CHARS = 1_024;
// Largest message (characters) an execution accepts; requests over it are refused at validation.
export { MAX_MESSAGE_CHARS } from '../kernel/message-limits.js';
/** Largest output (characters) kept from one execution; the model is stopped there. */
export const MAX_OUTPUT_CHARS = 4_000_000;

/** The count before the tokenizer is ready: a token per 3 UTF-16 units, above what o200k gives for prose. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** Splits a text into pieces of at most `max` chars, cutting after whitespace where it can. */
export function pieces(text: string, max = CHUNK_CHARS): string[] {
  const out: string[] = [];
  let start = 0;
  while (text.length - start > max) {
    let cut = start + max;
    // Look back a little for whitespace (bounded, so the scan stays linear) and cut before it:
    // o200k attaches a space to the word after it, so the pieces then count as the whole does.
    for (let i = cut - 1; i > start + max / 2; i--) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 9 || c === 13) {
        cut = i;
        break;
      }
    }
    // Never split a surrogate pair.
    const prev = text.charCodeAt(cut - 1);
    if (prev >= 0xd800 && prev <= 0xdbff) cut--;
    out.push(text.slice(start, cut));
    start = cut;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Counts with a raw counter, linear in the text's length (see the module comment). */
export function boundedCount(raw: Counter, text: string): number {
  if (text.length <= CHUNK_CHARS) return raw(text);
  const head = text.length > EXACT_MAX_CHARS ? text.slice(0, EXACT_MAX_CHARS) : text;
  let n = 0;
  for (const p of pieces(head)) n += raw(p);
  return head === text ? n : Math.ceil((n * text.length) / head.length);
}

/** Largest piece sent to the worker: CHUNK_CHARS UTF-16 units are at most 3 bytes each in UTF-8. */
const DATA_BYTES = CHUNK_CHARS * 3;
/** Pieces the tokenizer keeps merged (the library's default is 100,000). */
export const MERGE_CACHE_PIECES = 4_096;
/** A count the worker does not answer in this time falls back to the estimate (and the worker is dropped). */
const ANSWER_TIMEOUT_MS = 2_000;

let counter: Counter | null = null;
let loading: Promise<Counter> | null = null;
/** The running thread (for its heap figures). */
let thread: Worker | null = null;
let idle: { ms: number; clock?: IdleClock } = { ms: workerIdleMs() };

/** The idle end of the tokenizer's thread (tests inject a clock); applies from its next start. */
export function setTokenizerIdle(o: { ms: number; clock?: IdleClock }): void {
  idle = o;
}

async function startWorker(): Promise<Counter> {
  const entry = await workerEntry(import.meta.url, './tokenizer-thread.ts', './tokenizer.js');
  return new Promise((resolve, reject) => {
    const ctrlBuf = new SharedArrayBuffer(12);
    const dataBuf = new SharedArrayBuffer(DATA_BYTES);
    const ctrl = new Int32Array(ctrlBuf);
    const data = new Uint8Array(dataBuf);
    const encoder = new TextEncoder();
    const tokenizer = createRequire(import.meta.url).resolve('gpt-tokenizer');
    // Named: the thread is `tokenizer` in /proc and debuggers (a test checks it starts only when needed).
    const worker = new Worker(entry, { name: 'tokenizer', workerData: { tokenizer, ctrl: ctrlBuf, data: dataBuf, mergeCache: MERGE_CACHE_PIECES }, stdout: false, stderr: false });
    // An idle tokenizer must not keep a CLI or a test process alive.
    worker.unref();
    thread = worker;
    let broken = false;
    const ended = new IdleEnd({
      ...idle,
      end: () => {
        // Counts go back to the estimate until the next tokenCounter() has a new thread ready.
        if (counter === count) {
          counter = null;
          loading = null;
        }
        broken = true;
        void worker.terminate();
        // No execution for a whole idle period: the app is quiet, a fit time to shrink its heap.
        void releaseHeapWhenQuiet();
      },
    });
    const raw: Counter = (piece) => {
      if (broken) return estimateTokens(piece);
      ended.touch();
      const { written } = encoder.encodeInto(piece, data);
      ctrl[1] = written;
      Atomics.store(ctrl, 0, 1);
      Atomics.notify(ctrl, 0);
      if (Atomics.wait(ctrl, 0, 1, ANSWER_TIMEOUT_MS) === 'timed-out' || ctrl[2] < 0) {
        broken = true;
        void worker.terminate();
        return estimateTokens(piece);
      }
      const n = ctrl[2];
      Atomics.store(ctrl, 0, 0);
      return n;
    };
    const count: Counter = (text) => boundedCount(raw, text);
    worker.once('message', () => {
      ended.touch();
      resolve(count);
    });
    worker.once('error', (err) => {
      broken = true;
      reject(err);
    });
    worker.once('exit', () => {
      broken = true;
      ended.cancel();
      if (thread === worker) thread = null;
    });
  });
}

/** Starts loading the tokenizer in its worker (the first call does; later calls share the load). */
export function tokenCounter(): Promise<Counter> {
  if (counter) return Promise.resolve(counter);
  if (!loading) {
    const started: Promise<Counter> = startWorker()
      // Unless the thread ended idle before its load was awaited (then `loading` is already another start's).
      .then((c) => (loading === started ? (counter = c) : c))
      // A tokenizer that cannot load leaves counts estimated rather than failing executions.
      .catch(() => (counter = estimateTokens));
    loading = started;
  }
  return loading;
}

/**
 * The tokenizer thread's V8 heap in bytes (null when no thread runs): in use after a full collection
 * (what its tables and caches hold; a heap snapshot collects first, it is read and dropped) and
 * reserved (in use plus the room its generations keep). With `collect: false`, as the thread left
 * it, garbage and spare room included (what it costs in RAM then).
 * For tests and benches: it costs about a second.
 */
export async function tokenizerHeap({ collect = true } = {}): Promise<{ used: number; total: number } | null> {
  const w = thread;
  if (!w) return null;
  if (collect) {
    const snapshot = await w.getHeapSnapshot();
    for await (const chunk of snapshot) void chunk;
  }
  const h = await w.getHeapStatistics();
  return { used: h.used_heap_size, total: h.total_heap_size };
}

/** Whether exact counts are available without waiting. */
export function tokenizerReady(): boolean {
  return counter !== null;
}

/** Tokens of a text: exact (bounded) once the tokenizer is loaded, else a safe over-estimate. */
export function countTokensSync(text: string): number {
  return counter ? counter(text) : estimateTokens(text);
}
