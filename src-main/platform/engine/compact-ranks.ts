/**
 * The tokenizer's string → rank table (~200,000 pieces of o200k) in four typed arrays instead of a
 * Map of strings: the Map, its strings and the library's list of them held ~14 MB of the tokenizer
 * thread's heap; this holds ~6 MB, outside the collector's way, and answers the same ranks.
 * Open addressing with linear probing, FNV-1a over UTF-16 code units, at most half full.
 */
export class CompactRanks {
  /** Every piece's code units, one after another. */
  private readonly chars: Uint16Array;
  /** Where piece i starts in `chars` (piece i ends where i + 1 starts). */
  private readonly offsets: Int32Array;
  private readonly ranks: Int32Array;
  /** Piece index per slot, -1 for an empty slot. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  readonly size: number;

  constructor(entries: Map<string, number>) {
    let total = 0;
    for (const k of entries.keys()) total += k.length;
    const n = entries.size;
    let slots = 2;
    while (slots < n * 2) slots <<= 1;
    this.chars = new Uint16Array(total);
    this.offsets = new Int32Array(n + 1);
    this.ranks = new Int32Array(n);
    this.slots = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
    this.size = n;
    let i = 0;
    let at = 0;
    for (const [key, rank] of entries) {
      this.offsets[i] = at;
      for (let j = 0; j < key.length; j++) this.chars[at++] = key.charCodeAt(j);
      this.ranks[i] = rank;
      let s = hash(key) & this.mask;
      while (this.slots[s] !== -1) s = (s + 1) & this.mask;
      this.slots[s] = i++;
    }
    this.offsets[n] = at;
  }

  /** The rank of a piece, as Map.get gives it (undefined when it is not one). */
  get(key: string): number | undefined {
    const { slots, offsets, chars, mask } = this;
    for (let s = hash(key) & mask; ; s = (s + 1) & mask) {
      const e = slots[s];
      if (e === -1) return undefined;
      const start = offsets[e];
      if (offsets[e + 1] - start !== key.length) continue;
      let j = 0;
      while (j < key.length && chars[start + j] === key.charCodeAt(j)) j++;
      if (j === key.length) return this.ranks[e];
    }
  }
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
