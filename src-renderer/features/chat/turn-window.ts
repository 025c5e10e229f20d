/**
 * Which turns of a conversation are drawn: those in view plus a margin above and below, the rest
 * stand as empty space of their height (measured once drawn, estimated before). A 500-turn
 * conversation then costs what its visible turns cost, to open and to scroll.
 */

/** What a turn takes before it has been drawn: a question and an answer of a few paragraphs. */
export const ESTIMATE = 320;
/** Drawn beyond each edge of the view, so a fast scroll does not show empty space. */
export const OVERSCAN = 900;

/** Top of each turn within the list, and the list's whole height (`offsets[n]`). */
export function offsetsOf(keys: readonly string[], sizeOf: (key: string) => number): number[] {
  const out = new Array<number>(keys.length + 1);
  out[0] = 0;
  for (let i = 0; i < keys.length; i++) out[i + 1] = out[i] + sizeOf(keys[i]);
  return out;
}

/** The first turn whose bottom is below `y` (binary search over the offsets). */
function firstBelow(offsets: readonly number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1] > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The turns to draw for a view of the list from `top` (px, within the list) and `height` tall:
 * those it touches with `overscan` px either side, plus `keep` (the newest turn, one being edited
 * or holding focus), sorted. `top` null: the view is at the end of the list.
 */
export function windowOf(offsets: readonly number[], top: number | null, height: number, keep: readonly number[], overscan = OVERSCAN): number[] {
  const n = offsets.length - 1;
  if (n <= 0) return [];
  const total = offsets[n];
  const from = (top ?? Math.max(0, total - height)) - overscan;
  const to = (top ?? Math.max(0, total - height)) + height + overscan;
  const first = firstBelow(offsets, Math.max(0, from));
  let last = first;
  while (last + 1 < n && offsets[last + 1] < to) last++;
  const shown = new Set<number>();
  for (let i = first; i <= last; i++) shown.add(i);
  for (const k of keep) if (k >= 0 && k < n) shown.add(k);
  return [...shown].sort((a, b) => a - b);
}

/** What the list draws: runs of turns, with the space of the turns between them. */
export type Piece = { turn: number } | { gap: number; height: number };

export function piecesOf(offsets: readonly number[], drawn: readonly number[]): Piece[] {
  const out: Piece[] = [];
  const n = offsets.length - 1;
  let at = 0;
  for (const i of drawn) {
    if (i >= n) break;
    if (i > at) out.push({ gap: at, height: offsets[i] - offsets[at] });
    out.push({ turn: i });
    at = i + 1;
  }
  if (at < n) out.push({ gap: at, height: offsets[n] - offsets[at] });
  return out;
}
