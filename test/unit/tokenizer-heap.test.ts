/**
 * The tokenizer's thread keeps a bounded heap however many distinct words it counts: the library's
 * merge cache would otherwise keep up to 100,000 pieces (~27 MB), and counts stay the same.
 */
import { describe, expect, it } from 'vitest';
import { countTokensSync, tokenCounter, tokenizerHeap } from '../../src-main/platform/engine/tokens.js';

/** A text of distinct made-up words (none in the vocabulary whole, so each is merged and could be cached). */
const words = (from: number, n: number) => Array.from({ length: n }, (_, i) => `zq${(from + i).toString(36)}xv${((from + i) * 7919).toString(36)}`).join(' ');

describe('tokenizer memory', () => {
  it('once ready, the thread holds its tables without the garbage of building them (it reserved ~70 MB for ~25 MB of tables)', async () => {
    await tokenCounter();
    // As the thread left it, no collection first: what it holds in RAM while it waits for counts.
    const h = (await tokenizerHeap({ collect: false }))!;
    expect(h.used).toBeGreaterThan(0);
    expect(h.total).toBeLessThan(40 * 1024 * 1024);
  });

  it('holds the ranks compactly: ~11 MB in use once ready (the library’s Map of strings took ~25 MB)', async () => {
    await tokenCounter();
    const h = (await tokenizerHeap())!;
    expect(h.used).toBeLessThan(16 * 1024 * 1024);
  });

  it('counting 150,000 distinct words leaves the thread heap within a few MB of where it started, with exact counts', async () => {
    const count = await tokenCounter();
    const sample = words(0, 50);
    const before = count(sample);
    const start = (await tokenizerHeap())!.used;
    expect(start).toBeGreaterThan(0);
    // Texts of ~3,000 words each (under the exact-count limit), so every word is merged once.
    for (let from = 0; from < 150_000; from += 3_000) count(words(from, 3_000));
    const after = (await tokenizerHeap())!;
    expect(after.used - start).toBeLessThan(12 * 1024 * 1024);
    // The same text counts the same after the cache turned over.
    expect(countTokensSync(sample)).toBe(before);
  });
});
