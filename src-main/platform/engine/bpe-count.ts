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
    const NO = 0x7fffffff;
    // Parts are a linked list of their start offsets; pair[p] is the rank of part p joined with the one after it.
    for (let i = 0; i < len; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      pair[i] = i + 2 <= len ? rank(ranks, buf, i, i + 2, NO) : NO;
    }
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
      const gone = next[best];
      const after = next[gone];
      next[best] = after;
      if (after < len) prev[after] = best;
      parts--;
      pair[best] = after < len ? rank(ranks, buf, best, next[after], NO) : NO;
      const before = prev[best];
      if (before >= 0) pair[before] = rank(ranks, buf, before, after, NO);
    }
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

function rank(ranks: CompactRanks, buf: Uint8Array, start: number, end: number, none: number): number {
  const r = ranks.libraryRank(buf, start, end);
  return r < 0 ? none : r;
}
