import { describe, expect, it } from 'vitest';
import { fuseRanks, fuseScores } from '../../src-main/platform/modules/retrieval/fusion.js';

const ids = (xs: { id: number }[]) => xs.map((x) => x.id);

describe('score fusion of bm25 and vectors', () => {
  // bm25: passage 1 is a strong keyword match, 2..4 weak ones; vectors like 3 and 2, not 1.
  const bm25 = [
    { id: 1, score: 12 },
    { id: 2, score: 3 },
    { id: 3, score: 2.8 },
    { id: 4, score: 2.5 },
  ];
  const vector = [
    { id: 3, score: 0.61 },
    { id: 2, score: 0.6 },
    { id: 5, score: 0.58 },
    { id: 1, score: 0.2 },
  ];

  it('keeps a strong keyword match first where rank fusion would demote it', () => {
    expect(ids(fuseScores(bm25, vector))[0]).toBe(1);
    // The reason for not using reciprocal rank fusion: found by both beats first in one.
    expect(fuseRanks(ids(bm25), ids(vector))[0]).not.toBe(1);
  });

  it('orders by vectors when nothing matches the words, and by bm25 without vectors', () => {
    expect(ids(fuseScores([], vector))).toEqual([3, 2, 5, 1]);
    expect(ids(fuseScores(bm25, []))).toEqual([1, 2, 3, 4]);
  });

  it('lets vectors decide between keyword matches of about equal strength', () => {
    const flat = [
      { id: 7, score: 2.0 },
      { id: 8, score: 1.98 },
      { id: 9, score: 1.0 },
    ];
    const vec = [
      { id: 8, score: 0.7 },
      { id: 7, score: 0.3 },
      { id: 9, score: 0.29 },
    ];
    expect(ids(fuseScores(flat, vec))).toEqual([8, 7, 9]);
  });

  it('keeps each method rank and a fused score in [0, 1]', () => {
    const out = fuseScores(bm25, vector);
    expect(out.find((x) => x.id === 5)).toMatchObject({ bm25Rank: null, vectorRank: 3 });
    expect(out.find((x) => x.id === 1)).toMatchObject({ bm25Rank: 1, vectorRank: 4 });
    for (const x of out) {
      expect(x.fused).toBeGreaterThanOrEqual(0);
      expect(x.fused).toBeLessThanOrEqual(1);
    }
    expect(fuseScores([{ id: 1, score: 5 }], [])[0].fused).toBeCloseTo(0.7);
  });
});
