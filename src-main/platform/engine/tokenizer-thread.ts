/**
 * The tokenizer's thread (started by tokens.ts, built as tokenizer.js): loads gpt-tokenizer from the
 * path the starting thread resolved, says 'ready', then answers counts through shared memory:
 * ctrl[0] state (0 idle, 1 asked, 2 answered), ctrl[1] byte length in, ctrl[2] tokens out (-1 on error).
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { releaseHeapNow } from '../kernel/young-heap.js';

type Tokenizer = { countTokens(text: string): number; setMergeCacheSize(size: number): void };
const { tokenizer, ctrl: ctrlBuf, data: dataBuf, mergeCache } = workerData as { tokenizer: string; ctrl: SharedArrayBuffer; data: SharedArrayBuffer; mergeCache: number };

// Required by its resolved path: the package stays external to every bundle (build-serve.mjs EXTERNAL).
const { countTokens, setMergeCacheSize } = createRequire(import.meta.url)(tokenizer) as Tokenizer;
// The library remembers up to 100,000 pieces it has merged (~27 MB once that many distinct words
// were counted): a few thousand keep the common words fast and the thread's heap flat.
setMergeCacheSize(mergeCache);
const ctrl = new Int32Array(ctrlBuf);
const data = new Uint8Array(dataBuf);
const decoder = new TextDecoder();
countTokens('warm up the encoder once so the first real count is not the slow one');
// Building the tables leaves the rank file's array and strings behind: the heap reserved 55 MB for
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
