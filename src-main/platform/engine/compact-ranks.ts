/**
 * o200k's ranks (~200,000 pieces) in three typed arrays keyed by UTF-8 bytes, built in a short-lived
 * thread and moved (not copied) to the thread that counts: ~4 MB outside the collector's way,
 * where the library's Map of strings and its lists held ~25 MB of heap. Open addressing with linear
 * probing, FNV-1a over bytes, at most half full. The rank of a piece is its index.
 *
 * The library looks a byte sequence up as it decodes: valid UTF-8 as the string it decodes to, the
 * rest in its list of byte pieces. The table answers as it does (see `buildRankTables` and
 * `libraryRank`), so merges, and therefore counts, are the same.
 */

/** What the building thread hands over (transferable). */
export interface RankTables {
  /** Every piece's bytes, one after another, by rank. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Where rank r's bytes start (rank r ends where r + 1 starts); a piece never looked up is empty. */
  offsets: Int32Array<ArrayBuffer>;
  /** Rank per slot, -1 for an empty slot. */
  slots: Int32Array<ArrayBuffer>;
}

/** A piece as the library's rank list holds it: its text, or its bytes when they are not text. */
export type RankPiece = string | ArrayLike<number> | undefined;

/**
 * Builds the tables from the library's rank list (index = rank). `isText` is the library's own test
 * of whether bytes are looked up as a string: a piece listed as bytes that it decodes is never
 * found by the library (it looks the decoded string up instead), so it is left out here too.
 */
export function buildRankTables(list: ArrayLike<RankPiece>, isText: (bytes: Uint8Array) => boolean): RankTables {
  const encoder = new TextEncoder();
  const encoded: (Uint8Array | null)[] = new Array(list.length);
  let total = 0;
  let n = 0;
  for (let r = 0; r < list.length; r++) {
    const v = list[r];
    let b: Uint8Array | null = null;
    if (typeof v === 'string') b = encoder.encode(v);
    else if (v !== undefined) {
      b = Uint8Array.from(v);
      if (isText(b)) b = null;
    }
    encoded[r] = b;
    if (b) {
      total += b.length;
      n++;
    }
  }
  let size = 2;
  while (size < n * 2) size <<= 1;
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(list.length + 1);
  const slots = new Int32Array(size).fill(-1);
  const mask = size - 1;
  let at = 0;
  for (let r = 0; r < list.length; r++) {
    offsets[r] = at;
    const b = encoded[r];
    if (!b) continue;
    bytes.set(b, at);
    at += b.length;
    let s = hash(bytes, at - b.length, at) & mask;
    // A piece listed twice: the later rank wins, as it does in the library's Map.
    while (slots[s] !== -1 && !same(bytes, offsets, slots[s], bytes, at - b.length, at)) s = (s + 1) & mask;
    slots[s] = r;
  }
  offsets[list.length] = at;
  return { bytes, offsets, slots };
}

const NONE = -1;

export class CompactRanks {
  private readonly bytes: Uint8Array;
  private readonly offsets: Int32Array;
  private readonly slots: Int32Array;
  private readonly mask: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(t: RankTables) {
    this.bytes = t.bytes;
    this.offsets = t.offsets;
    this.slots = t.slots;
    this.mask = t.slots.length - 1;
  }

  /** Bytes the tables hold. */
  get byteLength(): number {
    return this.bytes.byteLength + this.offsets.byteLength + this.slots.byteLength;
  }

  /** The rank of the piece `key[start, end)`, -1 when it is not one. */
  rank(key: Uint8Array, start: number, end: number): number {
    const { slots, offsets, bytes, mask } = this;
    for (let s = hash(key, start, end) & mask; ; s = (s + 1) & mask) {
      const r = slots[s];
      if (r === NONE) return NONE;
      if (same(bytes, offsets, r, key, start, end)) return r;
    }
  }

  /**
   * The rank the library finds for these bytes while merging: it decodes valid UTF-8 first, and its
   * decoder drops a leading byte order mark, so valid bytes starting with one are found as the rest.
   */
  libraryRank(key: Uint8Array, start: number, end: number): number {
    if (end - start >= 3 && key[start] === 0xef && key[start + 1] === 0xbb && key[start + 2] === 0xbf) {
      let text = true;
      try {
        this.decoder.decode(key.subarray(start, end));
      } catch {
        text = false;
      }
      if (text) return this.rank(key, start + 3, end);
    }
    return this.rank(key, start, end);
  }
}

function same(bytes: Uint8Array, offsets: Int32Array, r: number, key: Uint8Array, start: number, end: number): boolean {
  const from = offsets[r];
  if (offsets[r + 1] - from !== end - start) return false;
  for (let j = 0; j < end - start; j++) if (bytes[from + j] !== key[start + j]) return false;
  return true;
}

function hash(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
  return h >>> 0;
}
