import { contentWords } from '../../db/fts-query.js';

export interface Scored {
  id: number;
  score: number;
  /** A bm25 hit's text: read only to find the query in it as a phrase (see `fuseScores`). */
  text?: string;
}

export interface Fused {
  id: number;
  bm25Rank: number | null;
  vectorRank: number | null;
  fused: number;
  /** It holds the query as a phrase, so it ranks no lower than bm25 put it. */
  quoted: boolean;
}

/**
 * The weight of bm25 in the fusion (vectors get the rest). Chosen on the retrieval bench: with
 * the built-in sentence encoder, 0.65-0.8 gain about equally on questions worded in other words,
 * an even split loses keyword hits to passages that are only loosely similar. No weight from 0.6
 * to 0.85 kept the one quoted passage the quote rule below keeps.
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

/** A query of fewer words is no quote: two words side by side turn up by chance in any long text. */
const QUOTE_MIN_WORDS = 3;
/**
 * Other words allowed between two consecutive words of a quote (stop words not counted): the query
 * leaves out repeated words (queryTerms), and people drop a word or two when they quote.
 */
const QUOTE_GAP = 2;

/**
 * Whether `text` holds the query's words as a phrase: in the query's order, each within
 * QUOTE_GAP other words of the one before. Null when the query is too short to be a quote.
 */
export function quoteMatcher(query: string): ((text: string) => boolean) | null {
  const terms = [...new Set(contentWords(query))];
  if (terms.length < QUOTE_MIN_WORDS) return null;
  return (text) => {
    const words = contentWords(text);
    // Positions where the phrase so far can end; each next word must come within the gap.
    let ends: number[] = [];
    for (let i = 0; i < words.length; i++) if (words[i] === terms[0]) ends.push(i);
    for (let k = 1; k < terms.length && ends.length; k++) {
      const next: number[] = [];
      let from = 0;
      for (const e of ends)
        for (let j = Math.max(e + 1, from); j <= Math.min(words.length - 1, e + 1 + QUOTE_GAP); j++) {
          if (words[j] === terms[k]) next.push(j);
          from = j + 1;
        }
      ends = next;
    }
    return ends.length > 0;
  };
}

/**
 * Relative score fusion of two best-first lists: each method's scores are normalized to [0, 1]
 * within its candidates, then weighted and summed (an item a method did not return adds 0).
 * Unlike reciprocal rank fusion, a strong keyword match keeps its lead over passages both
 * methods found only middling, while a query with weak or no keyword matches (flat bm25 scores)
 * is ordered by its vectors. Ties keep the bm25 order, then the vector order.
 *
 * One rule on top (given `query` and the bm25 hits' text): a bm25 hit that holds the query as a
 * phrase (quoteMatcher) ranks no lower than bm25 ranked it. Someone who types a passage's own
 * words is looking for that passage, and vectors judge the whole passage's meaning: several texts
 * that say much the same (licences, versions of one document) score alike for them, and their
 * small differences, stretched to [0, 1], could push the quoted one down past others bm25 found
 * about as good. The quoted hit keeps its place; it is not lifted above it.
 */
export function fuseScores(bm25: Scored[], vector: Scored[], opts: { query?: string; bm25Weight?: number } = {}): Fused[] {
  const bm25Weight = opts.bm25Weight ?? BM25_WEIGHT;
  const b = minMax(bm25);
  const v = minMax(vector);
  const quotes = opts.query ? quoteMatcher(opts.query) : null;
  const out = new Map<number, Fused & { order: number }>();
  let order = 0;
  const add = (list: Scored[], which: 'bm25Rank' | 'vectorRank') =>
    list.forEach((x, i) => {
      let e = out.get(x.id);
      if (!e) out.set(x.id, (e = { id: x.id, bm25Rank: null, vectorRank: null, fused: bm25Weight * (b.get(x.id) ?? 0) + (1 - bm25Weight) * (v.get(x.id) ?? 0), quoted: false, order: order++ }));
      e[which] ??= i + 1;
      if (which === 'bm25Rank' && quotes && x.text !== undefined && !e.quoted) e.quoted = quotes(x.text);
    });
  add(bm25, 'bm25Rank');
  add(vector, 'vectorRank');
  const sorted = [...out.values()].sort((x, y) => y.fused - x.fused || x.order - y.order).map(({ order: _order, ...rest }) => rest);
  return keepQuotedPlaces(sorted);
}

/** The fused order, except that a quoted hit the fusion put below its bm25 rank goes back to that rank. */
function keepQuotedPlaces(sorted: Fused[]): Fused[] {
  const due = sorted.filter((x) => x.quoted).sort((x, y) => x.bm25Rank! - y.bm25Rank!);
  if (!due.length) return sorted;
  const out: Fused[] = [];
  const placed = new Set<Fused>();
  let next = 0;
  while (out.length < sorted.length) {
    const late = due.find((x) => !placed.has(x) && x.bm25Rank! <= out.length + 1);
    if (late) {
      out.push(late);
      placed.add(late);
      continue;
    }
    while (placed.has(sorted[next])) next++;
    out.push(sorted[next]);
    placed.add(sorted[next]);
  }
  return out;
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
