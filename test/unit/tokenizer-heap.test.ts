/**
 * The tokenizer holds bounded memory however many distinct words it counts: its tables (~4 MB of
 * typed arrays, built from the library’s rank file) and at most MERGE_CACHE_PIECES pre-tokens
 * it remembers (the library would keep up to 100,000, ~27 MB), and counts stay the same.
 */
import { describe, expect, it } from 'vitest';
import { countTokensSync, MERGE_CACHE_PIECES, tokenCounter, tokenizerMemory } from '../../src-main/platform/engine/tokens.js';

/** A text of distinct made-up words (none in the vocabulary whole, so each is merged and could be kept). */
const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `zq${(from + i).toString(36)}xv${((from + i) * 7919).toString(36)}`).join(' ');

describe('tokenizer memory', () => {
  it('once ready, it holds its tables compactly: under 6 MB of typed arrays (the library’s Map of strings took ~25 MB of heap)', async () => {
    await tokenCounter();
    const m = tokenizerMemory()!;
    expect(m.tableBytes).toBeGreaterThan(1024 * 1024);
    expect(m.tableBytes).toBeLessThan(6 * 1024 * 1024);
  });

  it('counting 150,000 distinct words keeps at most MERGE_CACHE_PIECES pre-tokens, with exact counts', async () => {
    const count = await tokenCounter();
    const sample = words(0, 50);
    const before = count(sample);
    // Texts of ~3,000 words each (under the exact-count limit), so every word is merged once.
    for (let from = 0; from < 150_000; from += 3_000) count(words(from, 3_000));
    expect(tokenizerMemory()!.cachedPieces).toBeLessThanOrEqual(MERGE_CACHE_PIECES);
    expect(tokenizerMemory()!.cachedPieces).toBeGreaterThan(MERGE_CACHE_PIECES / 2);
    // The same text counts the same after the cache turned over.
    expect(countTokensSync(sample)).toBe(before);
  });
});
