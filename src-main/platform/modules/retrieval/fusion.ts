export interface Scored {
  id: number;
  score: number;
}

export interface Fused {
  id: number;
  bm25Rank: number | null;
  vectorRank: number | null;
  fused: number;
}

/**
 * The weight of bm25 in the fusion (vectors get the rest). Chosen on the retrieval bench: with
 * the built-in sentence encoder, 0.6 and 0.7 both keep every keyword hit and gain on questions
 * worded in other words; an even split already loses keyword hits to passages that are only
 * loosely similar.
 */
export const BM25_WEIGHT = 0.7;

/** Each list's scores mapped onto [0, 1] (best = 1, worst kept = 0; a list of one scores 1). */
function minMax(list: Scored[]): Map<number, number> {
  let hi = -Infinity;
  let lo = Infinity;
  for (const x of list) {
    hi = Math.max(hi, x.score);
    lo = Math.min(lo, x.score);
  }
  return new Map(list.map((x) => [x.id, hi > lo ? (x.score - lo) / (hi - lo) : 1]));
}

/**
 * Relative score fusion of two best-first lists: each method's scores are normalized to [0, 1]
 * within its candidates, then weighted and summed (an item a method did not return adds 0).
 * Unlike reciprocal rank fusion, a strong keyword match keeps its lead over passages both
 * methods found only middling, while a query with weak or no keyword matches (flat bm25 scores)
 * is ordered by its vectors. Ties keep the bm25 order, then the vector order.
 */
export function fuseScores(bm25: Scored[], vector: Scored[], bm25Weight = BM25_WEIGHT): Fused[] {
  const b = minMax(bm25);
  const v = minMax(vector);
  const out = new Map<number, Fused & { order: number }>();
  let order = 0;
  const add = (list: Scored[], which: 'bm25Rank' | 'vectorRank') =>
    list.forEach((x, i) => {
      let e = out.get(x.id);
      if (!e) out.set(x.id, (e = { id: x.id, bm25Rank: null, vectorRank: null, fused: bm25Weight * (b.get(x.id) ?? 0) + (1 - bm25Weight) * (v.get(x.id) ?? 0), order: order++ }));
      e[which] ??= i + 1;
    });
  add(bm25, 'bm25Rank');
  add(vector, 'vectorRank');
  return [...out.values()].sort((x, y) => y.fused - x.fused || x.order - y.order).map(({ order: _order, ...rest }) => rest);
}

/**
 * Reciprocal rank fusion (Cormack et al., 2009; k = 60), kept for the retrieval bench's
 * comparison: it rewards being found by both methods over being first in one.
 */
export function fuseRanks(bm25: number[], vector: number[], k = 60): number[] {
  const score = new Map<number, number>();
  for (const list of [bm25, vector]) list.forEach((id, i) => score.set(id, (score.get(id) ?? 0) + 1 / (k + i + 1)));
  return [...score].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
