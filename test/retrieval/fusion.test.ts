import { describe, expect, it } from 'vitest';
import { fuseRanks, fuseScores, quoteMatcher } from '../../src-main/platform/modules/retrieval/fusion.js';

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

describe('a quoted bm25 hit keeps its bm25 place in the fusion', () => {
  // As in the retrieval bench's lost question: licences that say the same thing in other orders.
  // Passage 3 holds the query's words as written; vectors favour the others and never found 3.
  const query = 'source code form means work preferred';
  const gpl = 'The "source code" for a work means the preferred form of the work for making modifications to it.';
  const mpl = '1.13. "Source Code Form" means the form of the work preferred for making modifications.';
  const bm25 = [
    { id: 1, score: 10, text: gpl },
    { id: 2, score: 9.8, text: gpl },
    { id: 3, score: 9.6, text: mpl },
    { id: 4, score: 9.4, text: gpl },
    { id: 5, score: 2, text: 'Source code.' },
  ];
  const vector = [
    { id: 1, score: 0.75 },
    { id: 4, score: 0.72 },
    { id: 2, score: 0.7 },
    { id: 6, score: 0.6 },
    { id: 5, score: 0.55 },
  ];

  it('puts the quoted passage back at its bm25 rank, where plain score fusion demotes it', () => {
    // Without the query (today's fusion before the rule) the similar passage 4 overtakes it.
    expect(ids(fuseScores(bm25, vector))).toEqual([1, 2, 4, 3, 6, 5]);
    const fused = fuseScores(bm25, vector, { query });
    expect(ids(fused)).toEqual([1, 2, 3, 4, 6, 5]);
    expect(fused.filter((x) => x.quoted).map((x) => x.id)).toEqual([3]);
  });

  it('never lifts a quoted passage above where the fusion put it, nor above its bm25 rank', () => {
    // Vectors like the quoted passage: fusion already ranks it first; the rule leaves that alone.
    const liked = [{ id: 3, score: 0.9 }, ...vector];
    expect(ids(fuseScores(bm25, liked, { query }))[0]).toBe(3);
    // A quote bm25 ranked last: its place is that last bm25 rank, not the top.
    const last = [...bm25.slice(0, 4).map((x) => ({ ...x, text: gpl })), { id: 5, score: 2, text: mpl }];
    const out = ids(fuseScores(last, vector, { query }));
    expect(out.indexOf(5)).toBeLessThanOrEqual(4);
    expect(out.indexOf(5)).toBeGreaterThan(0);
  });

  it('orders every item exactly once', () => {
    const out = ids(fuseScores(bm25, vector, { query }));
    expect([...out].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('what counts as a quote', () => {
  const holds = (q: string, text: string) => quoteMatcher(q)?.(text) ?? null;

  it('finds the query words in order, stop words and a repeated word aside', () => {
    expect(holds('source code form means work preferred', '"Source Code Form" means the form of the work preferred for making modifications.')).toBe(true);
    // Up to two other words between consecutive ones.
    expect(holds('pump repair invoice', 'the pump needed a costly repair, invoice attached')).toBe(true);
  });

  it('refuses other orders, wider gaps and queries too short to be a quote', () => {
    expect(holds('source code form means work preferred', 'The "source code" for a work means the preferred form of the work.')).toBe(false);
    expect(holds('pump repair invoice', 'the pump needed a very costly urgent repair, invoice attached')).toBe(false);
    expect(holds('pump repair', 'pump repair')).toBeNull();
    expect(holds('the of and', 'the of and')).toBeNull();
  });
});
