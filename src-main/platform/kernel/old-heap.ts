import v8 from 'node:v8';

/** How far past what survived the last full collection the old generation may grow before the next one: 20 %. */
export const OLD_GENERATION_GROWTH_PERCENT = 20;

/**
 * Keeps the old generation of this process's heaps near what they hold alive. V8 lets it grow to
 * a multiple of the live objects (up to 4x) before a full collection, and under load objects that
 * outlive two young collections (a stream's, a request's) are promoted and become old garbage:
 * in `npm run bench -- load` (200 streams) the server's heap reserved 113-137 MB for ~40 MB
 * alive, and those pages are resident. At 1.2x it reserves 42-53 MB (server RSS at the peak
 * 293-322 -> 218-225 MB), for about three times as many full collections, which V8 marks mostly
 * on its helper threads (the bench reports their count and pauses). V8 reads this flag
 * each time it sets the next limit, so setting it at run time works; the flag is the process's,
 * so worker threads' heaps follow it too.
 */
export function keepOldGenerationNearLive(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}
