import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { IdleEnd, workerIdleMs, type IdleClock } from '../kernel/idle-end.js';
import { releaseHeapWhenQuiet } from '../kernel/young-heap.js';
import { BpeCounter } from './bpe-count.js';
import { buildRankTables, CompactRanks } from './compact-ranks.js';

/**
 * Token counting (o200k, as gpt-tokenizer counts), bounded, on the calling thread, with no thread.
 *
 * - The tables are built when first needed (`tokenCounter()`, which an execution calls as it
 *   starts), not with the server, from the library's rank file, in slices of a few ms between
 *   which the event loop turns (compact-ranks.ts): importing the library's rank list instead would
 *   stop HTTP, SSE and IPC for ~0.4 s of parsing, and a thread to import it in holds ~15-20 MB
 *   while it lives and leaves its allocations resident after it ends. Until the tables are built,
 *   counts are a safe over-estimate. They (~4 MB) are let go after an idle period
 *   (AGENT_DESK_WORKER_IDLE_S, 60 s by default) and the next execution builds them again.
 * - Counts are synchronous (context building sums many small texts) and made here
 *   (bpe-count.ts): a few hundred words take tens of microseconds, less than the round trip to
 *   the thread that used to count them.
 * - Never quadratic: merging is superlinear in the length of one pre-token, so no piece handed to it
 *   is longer than CHUNK_CHARS (runs without spaces are cut), and a text longer than EXACT_MAX_CHARS
 *   is counted on its first EXACT_MAX_CHARS and scaled: the worst count (32,000 CJK characters
 *   without a space) takes ~25 ms, a few hundred words tens of microseconds.
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

/** Longest stretch the build runs before letting the event loop turn. */
const SLICE_MS = 4;

async function load(): Promise<Counter> {
  const require = createRequire(import.meta.url);
  // The library's own rank file and split pattern (its constants module holds no tables).
  const file = await fs.readFile(require.resolve('gpt-tokenizer/data/o200k_base.tiktoken'), 'latin1');
  const { O200K_TOKEN_SPLIT_REGEX: split } = require('gpt-tokenizer/encodingParams/constants') as { O200K_TOKEN_SPLIT_REGEX: RegExp };
  const steps = buildRankTables(file);
  let step = steps.next();
  while (!step.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const until = performance.now() + SLICE_MS;
    do step = steps.next();
    while (!step.done && performance.now() < until);
  }
  const tables = step.value;
  const bpe = new BpeCounter(new CompactRanks(tables), new RegExp(split.source, split.flags), MERGE_CACHE_PIECES);
  const raw: Counter = bpe.count;
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
  heldBytes = tables.bytes.byteLength + tables.offsets.byteLength + tables.slots.byteLength;
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
