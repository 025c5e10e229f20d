import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { IdleEnd, workerIdleMs, type IdleClock } from '../kernel/idle-end.js';
import { releaseHeapWhenQuiet } from '../kernel/young-heap.js';
import { workerEntry } from '../kernel/worker-entry.js';
import { BpeCounter } from './bpe-count.js';
import { CompactRanks, type RankTables } from './compact-ranks.js';

/**
 * Token counting (o200k, as gpt-tokenizer counts), bounded, on the calling thread, with no thread
 * kept.
 *
 * - Importing the library's rank list costs ~0.4 s of parsing that would stop HTTP, SSE and IPC:
 *   a short-lived thread (tokenizer-thread.ts, built as tokenizer.js, started through
 *   kernel/worker-entry.ts) parses it, builds compact tables (compact-ranks.ts, ~4 MB of typed
 *   arrays) and moves them here, then ends. It starts when first needed (`tokenCounter()`, which an
 *   execution calls as it starts), not with the server. Until the tables are here, counts are a
 *   safe over-estimate. They are let go after an idle period (AGENT_DESK_WORKER_IDLE_S, 60 s by
 *   default) and the next execution builds them again.
 * - Counts are synchronous (context building sums many small texts) and made here (bpe-count.ts):
 *   a count of a few hundred words takes tens of microseconds, less than the round trip to a
 *   thread that counted them used to, and no thread is kept for it.
 * - Never quadratic: BPE is quadratic in the length of one pre-token, so no piece handed to it is
 *   longer than CHUNK_CHARS (runs without spaces are cut), and a text longer than EXACT_MAX_CHARS
 *   is counted on its first EXACT_MAX_CHARS and scaled: every count costs at most a few ms.
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

/** Pre-tokens the counter keeps merged (the library keeps 100,000 by default, ~27 MB of heap). */
export const MERGE_CACHE_PIECES = 4_096;
/** Texts whose counts by the library (in the building thread) the counter here must give, else counts stay estimated. */
const SAMPLES = [
  'Compact ranks: the same counts for prose, código, 日本語, emoji 🎉 and zqxv-like made-up words.',
  'function f(a, b) {\n  return a <= b ? a : b; // 3.14159\n}\n\n\tdone',
  '\ufeffusing namespace 출장안마 <|endoftext|> \ud800 naïve Größe',
];

interface Built {
  tables: RankTables;
  pattern: string;
  flags: string;
  expected: number[];
}

let counter: Counter | null = null;
let loading: Promise<Counter> | null = null;
/** The counter's tables and merge cache while they are held (for their figures). */
let held: BpeCounter | null = null;
let heldBytes = 0;
let idle: { ms: number; clock?: IdleClock } = { ms: workerIdleMs() };

/** The idle end of the tokenizer's tables (tests inject a clock); applies from their next build. */
export function setTokenizerIdle(o: { ms: number; clock?: IdleClock }): void {
  idle = o;
}

/** Builds the tables in a thread that ends once it has handed them over. */
async function buildTables(): Promise<Built> {
  const entry = await workerEntry(import.meta.url, './tokenizer-thread.ts', './tokenizer.js');
  const tokenizer = createRequire(import.meta.url).resolve('gpt-tokenizer');
  return new Promise((resolve, reject) => {
    // Named: the thread is `tokenizer` in /proc and debuggers (a test checks it starts only when needed).
    const worker = new Worker(entry, { name: 'tokenizer', workerData: { tokenizer, samples: SAMPLES }, stdout: false, stderr: false });
    // A CLI or a test process does not wait for it.
    worker.unref();
    worker.once('message', (built: Built) => resolve(built));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The tokenizer's thread ended (${code}) before its tables were built.`)));
  });
}

async function load(): Promise<Counter> {
  const built = await buildTables();
  const bpe = new BpeCounter(new CompactRanks(built.tables), new RegExp(built.pattern, built.flags), MERGE_CACHE_PIECES);
  const raw: Counter = bpe.count;
  // A library whose insides changed (another version) could count otherwise: then counts stay estimated.
  if (SAMPLES.some((t, i) => boundedCount(raw, t) !== built.expected[i])) throw new Error('The tokenizer counts differently from gpt-tokenizer.');
  const ended = new IdleEnd({
    ...idle,
    end: () => {
      // Counts go back to the estimate until the next tokenCounter() has the tables again.
      if (counter === count) {
        counter = null;
        loading = null;
        held = null;
        heldBytes = 0;
      }
      // No execution for a whole idle period: the app is quiet, a fit time to shrink its heap.
      void releaseHeapWhenQuiet();
    },
  });
  const count: Counter = (text) => {
    ended.touch();
    return boundedCount(raw, text);
  };
  ended.touch();
  held = bpe;
  heldBytes = built.tables.bytes.byteLength + built.tables.offsets.byteLength + built.tables.slots.byteLength;
  return count;
}

/** Starts building the tokenizer's tables (the first call does; later calls share the build). */
export function tokenCounter(): Promise<Counter> {
  if (counter) return Promise.resolve(counter);
  if (!loading) {
    const started: Promise<Counter> = load()
      // Unless the tables were let go before the build was awaited (then `loading` is already another start's).
      .then((c) => (loading === started ? (counter = c) : c))
      // A tokenizer that cannot load leaves counts estimated rather than failing executions.
      .catch(() => (counter = estimateTokens));
    loading = started;
  }
  return loading;
}

/** What the tokenizer holds (null when nothing): its tables' bytes and the pre-tokens it keeps merged. For tests and benches. */
export function tokenizerMemory(): { tableBytes: number; cachedPieces: number } | null {
  return held ? { tableBytes: heldBytes, cachedPieces: held.cached } : null;
}

/** Whether exact counts are available without waiting. */
export function tokenizerReady(): boolean {
  return counter !== null;
}

/** Tokens of a text: exact (bounded) once the tokenizer is loaded, else a safe over-estimate. */
export function countTokensSync(text: string): number {
  return counter ? counter(text) : estimateTokens(text);
}
