import type { CompactRanks } from './compact-ranks.js';

/**
 * Counts o200k tokens as gpt-tokenizer's `countTokens` does, with its split pattern and ranks but
 * without its encoder: the text is split into pre-tokens by the pattern; a pre-token that is a
 * piece whole is one token, else its UTF-8 bytes are merged pair by pair, the lowest rank first
 * (the leftmost among equals), until no pair is a piece, and the parts are counted. Special-token
 * texts (`<|endoftext|>`) count as the ordinary text a model receives them as.
 *
 * Merging is quadratic in a pre-token's length: callers hand it bounded pieces (tokens.ts).
 */
export class BpeCounter {
  private readonly encoder = new TextEncoder();
  private buf = new Uint8Array(256);
  private next = new Int32Array(256);
  private prev = new Int32Array(256);
  private pair = new Int32Array(256);
  private heap = new Float64Array(768);
  /** Parts of the pre-tokens counted lately (most recent last): common words are a Map lookup. */
  private readonly merged = new Map<string, number>();

  constructor(
    private readonly ranks: CompactRanks,
    private readonly split: RegExp,
    private readonly cacheSize: number,
  ) {
    if (!split.global) throw new Error('The split pattern must be global.');
  }

  /** Pre-tokens kept counted. */
  get cached(): number {
    return this.merged.size;
  }

  readonly count = (text: string): number => {
    const re = this.split;
    re.lastIndex = 0;
    let n = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const t = m[0];
      if (t.length === 0) {
        // An empty match would not advance (the o200k pattern has none; another might).
        re.lastIndex++;
        continue;
      }
      n += t.length === 1 && t.charCodeAt(0) < 0x80 ? 1 : this.pretoken(t);
    }
    return n;
  };

  private pretoken(t: string): number {
    const known = this.merged.get(t);
    if (known !== undefined) return known;
    if (this.buf.length < t.length * 3) this.grow(t.length * 3);
    const { written } = this.encoder.encodeInto(t, this.buf);
    // Whole, the library looks the text up as it is (a lone surrogate is never a piece).
    const parts = this.ranks.rank(this.buf, 0, written) >= 0 && (t as WellFormed).isWellFormed() ? 1 : this.merge(written);
    if (this.cacheSize > 0) {
      if (this.merged.size >= this.cacheSize) this.merged.delete(this.merged.keys().next().value!);
      this.merged.set(t, parts);
    }
    return parts;
  }

  /** Merges buf[0, len) and returns how many parts are left. */
  private merge(len: number): number {
    if (len <= 1) return len;
    const { buf, next, prev, pair, ranks } = this;
    // Parts are a linked list of their start offsets; pair[p] is the rank of part p joined with the one after it.
    for (let i = 0; i < len; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      pair[i] = i + 2 <= len ? rank(ranks, buf, i, i + 2, NO) : NO;
    }
    return len > SCAN_MAX ? this.mergeByHeap(len) : this.mergeByScan(len);
  }

  /** Short pieces (most words): a scan of the pairs for the lowest rank, the leftmost among equals. */
  private mergeByScan(len: number): number {
    const { next, pair } = this;
    let parts = len;
    for (;;) {
      let best = -1;
      let lowest = NO;
      for (let p = 0; p < len; p = next[p]) {
        if (pair[p] < lowest) {
          lowest = pair[p];
          best = p;
        }
      }
      if (best < 0) return parts;
      this.join(best, len);
      parts--;
    }
  }

  /**
   * Long pieces (a run without spaces, CJK text): the same choice from a heap keyed by rank, then
   * offset, so a piece of n bytes costs n log n rather than n²; entries made stale by a merge are
   * skipped when they come up (their part is gone, or its pair's rank is no longer theirs).
   */
  private mergeByHeap(len: number): number {
    const { next, pair } = this;
    if (this.heap.length < 3 * len) this.heap = new Float64Array(3 * len);
    const heap = this.heap;
    let size = 0;
    const push = (key: number) => {
      let i = size++;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (heap[up] <= key) break;
        heap[i] = heap[up];
        i = up;
      }
      heap[i] = key;
    };
    const pop = (): number => {
      const top = heap[0];
      const last = heap[--size];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= size) break;
        if (child + 1 < size && heap[child + 1] < heap[child]) child++;
        if (heap[child] >= last) break;
        heap[i] = heap[child];
        i = child;
      }
      heap[i] = last;
      return top;
    };
    for (let p = 0; p < len - 1; p++) if (pair[p] !== NO) push(pair[p] * OFFSETS + p);
    let parts = len;
    while (size > 0) {
      const key = pop();
      const p = key % OFFSETS;
      const r = (key - p) / OFFSETS;
      // Gone parts have next[p] = -1.
      if (next[p] < 0 || pair[p] !== r) continue;
      const before = this.join(p, len);
      parts--;
      if (pair[p] !== NO) push(pair[p] * OFFSETS + p);
      if (before >= 0 && pair[before] !== NO) push(pair[before] * OFFSETS + before);
    }
    return parts;
  }

  /** Joins part p with the one after it; its pair and the one before it get their new ranks. Returns the part before. */
  private join(p: number, len: number): number {
    const { buf, next, prev, pair, ranks } = this;
    const gone = next[p];
    const after = next[gone];
    next[p] = after;
    next[gone] = -1;
    if (after < len) prev[after] = p;
    pair[p] = after < len ? rank(ranks, buf, p, next[after], NO) : NO;
    const before = prev[p];
    if (before >= 0) pair[before] = rank(ranks, buf, before, after, NO);
    return before;
  }

  private grow(bytes: number): void {
    let size = this.buf.length;
    while (size < bytes) size *= 2;
    this.buf = new Uint8Array(size);
    this.next = new Int32Array(size);
    this.prev = new Int32Array(size);
    this.pair = new Int32Array(size);
  }
}

/** String.prototype.isWellFormed (Node 20+; the project's TypeScript lib predates it). */
type WellFormed = string & { isWellFormed(): boolean };

/** No pair: above every rank. */
const NO = 0x7fffffff;
/** Pieces up to this many bytes are merged by scanning; longer ones through a heap. */
const SCAN_MAX = 64;
/** Heap keys are rank * OFFSETS + offset (a piece is far shorter than 2^22 bytes). */
const OFFSETS = 2 ** 22;

function rank(ranks: CompactRanks, buf: Uint8Array, start: number, end: number, none: number): number {
  const r = ranks.libraryRank(buf, start, end);
  return r < 0 ? none : r;
}
