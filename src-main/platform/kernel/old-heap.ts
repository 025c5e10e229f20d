import v8 from 'node:v8';

/** How far past what survived the last full collection the old generation may grow before the next one: 50 %. */
export const OLD_GENERATION_GROWTH_PERCENT = 50;

/**
 * Keeps the old generation of this process's heaps near what they hold alive. V8 lets it grow to
 * a multiple of the live objects (up to 4x) before a full collection, and under load objects that
 * outlive two young collections (a stream's, a request's) are promoted and become old garbage:
 * in `npm run bench -- load` (200 streams) the server's heap reserved 113-137 MB for ~40 MB
 * alive, and those pages stay resident (V8 keeps the pages it frees pooled). At 1.5x it
 * reserves 50-64 MB (server RSS at the peak 293-322 -> 220-244 MB), for about twice as many
 * full collections, which V8 marks mostly on its helper threads (the bench reports their count
 * and pauses). 1.2x saved ~10 MB more for three times as many, and the server's CPU per request
 * rose by ~20 %. V8 reads this flag
 * each time it sets the next limit, so setting it at run time works; the flag is the process's,
 * so worker threads' heaps follow it too.
 */
export function keepOldGenerationNearLive(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}
