/** The constant of reciprocal rank fusion (Cormack et al., 2009): damps the weight of the top ranks. */
export const RRF_K = 60;

export interface Fused<T> {
  item: T;
  bm25Rank: number | null;
  vectorRank: number | null;
  fused: number;
}

/**
 * Reciprocal rank fusion of two best-first lists: each item scores Σ 1 / (k + rank) over the
 * lists it appears in (ranks from 1). Needs no calibration between bm25 and cosine scores,
 * which live on unrelated scales. Ties keep the bm25 order, then the vector order.
 */
export function fuseRanks<T>(bm25: T[], vector: T[], keyOf: (item: T) => number | string): Fused<T>[] {
  const out = new Map<number | string, Fused<T> & { order: number }>();
  let order = 0;
  const add = (list: T[], which: 'bm25Rank' | 'vectorRank') => {
    list.forEach((item, i) => {
      const key = keyOf(item);
      let e = out.get(key);
      if (!e) out.set(key, (e = { item, bm25Rank: null, vectorRank: null, fused: 0, order: order++ }));
      if (e[which] !== null) return;
      e[which] = i + 1;
      e.fused += 1 / (RRF_K + i + 1);
    });
  };
  add(bm25, 'bm25Rank');
  add(vector, 'vectorRank');
  return [...out.values()].sort((a, b) => b.fused - a.fused || a.order - b.order).map(({ order: _order, ...rest }) => rest);
}
