/**
 * The tokenizer's thread (started by tokens.ts, built as tokenizer.js): loads gpt-tokenizer from the
 * path the starting thread resolved, says 'ready', then answers counts through shared memory:
 * ctrl[0] state (0 idle, 1 asked, 2 answered), ctrl[1] byte length in, ctrl[2] tokens out (-1 on error).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeapNow } from '../kernel/young-heap.js';
import { CompactRanks } from './compact-ranks.js';

type Tokenizer = { countTokens(text: string): number; setMergeCacheSize(size: number): void };
/** The parts of gpt-tokenizer's encoder (3.x) the compact table replaces; only counts are asked of it, never decodes. */
type Core = { bytePairStringRankEncoder: { get(key: string): number | undefined }; bytePairRankDecoder: unknown[] };
const { tokenizer, ctrl: ctrlBuf, data: dataBuf, mergeCache } = workerData as { tokenizer: string; ctrl: SharedArrayBuffer; data: SharedArrayBuffer; mergeCache: number };

// Required by its resolved path: the package stays external to every bundle (build-serve.mjs EXTERNAL).
const load = createRequire(import.meta.url);
const library = load(tokenizer) as Tokenizer & { default?: { bytePairEncodingCoreProcessor?: Core } };
const { countTokens, setMergeCacheSize } = library;
// The library remembers up to 100,000 pieces it has merged (~27 MB once that many distinct words
// were counted): a few thousand keep the common words fast and the thread's heap flat.
setMergeCacheSize(mergeCache);
/**
 * Swaps the library's rank Map for a compact copy (compact-ranks.ts) and lets go of the Map, the
 * rank list (used only to decode) and the rank file's exported list: ~13 MB less in this thread.
 * The counts must not change: a sample is counted before and after, and a library whose insides
 * differ (another version) or a sample counted differently keeps the Map.
 */
function compactRanks(): void {
  const core = library.default?.bytePairEncodingCoreProcessor;
  if (!core || !(core.bytePairStringRankEncoder instanceof Map) || !Array.isArray(core.bytePairRankDecoder)) return;
  const sample = 'Compact ranks: the same counts for prose, código, 日本語, emoji 🎉 and zqxv-like made-up words.';
  const before = countTokens(sample);
  const map = core.bytePairStringRankEncoder;
  const rankList = core.bytePairRankDecoder;
  core.bytePairStringRankEncoder = new CompactRanks(map);
  if (countTokens(sample) !== before) {
    core.bytePairStringRankEncoder = map;
    return;
  }
  core.bytePairRankDecoder = [];
  try {
    // The rank file's module keeps its exported list in the module cache: the list goes, the module stays.
    const ranks = load(path.join(path.dirname(tokenizer), 'bpeRanks', 'o200k_base.js')) as { default?: unknown };
    if (ranks.default === rankList) ranks.default = undefined;
  } catch {
    // Another layout: its list stays (counts are unaffected).
  }
}

const ctrl = new Int32Array(ctrlBuf);
const data = new Uint8Array(dataBuf);
const decoder = new TextDecoder();
countTokens('warm up the encoder once so the first real count is not the slow one');
compactRanks();
// Building the tables leaves the rank file's array and strings behind: the heap reserved 70 MB for
// 37 MB in use, and 19 MB after a collection. The thread then blocks in Atomics.wait, where V8
// never shrinks it on its own: the pages go back now, once.
releaseHeapNow();
parentPort!.postMessage('ready');
for (;;) {
  const state = Atomics.load(ctrl, 0);
  if (state !== 1) {
    Atomics.wait(ctrl, 0, state);
    continue;
  }
  let n = -1;
  try {
    n = countTokens(decoder.decode(data.subarray(0, ctrl[1])));
  } catch {
    // -1 tells the caller to fall back to the estimate (and drop this thread).
  }
  ctrl[2] = n;
  Atomics.store(ctrl, 0, 2);
  Atomics.notify(ctrl, 0);
}

