/**
 * o200k's ranks (~200,000 pieces) in three typed arrays keyed by UTF-8 bytes: ~4 MB outside the
 * collector's way, where the library's Map of strings and its lists held ~25 MB of heap. Built
 * from the library's own rank file (`data/o200k_base.tiktoken`: a piece's bytes in base64 and its
 * rank, a line each) in slices (`buildRankTables` is a generator), so the event loop turns between
 * them: reading that file takes tens of ms, where importing the library's rank list parsed for
 * ~0.4 s in one go. Open addressing with linear probing, FNV-1a over bytes, at most half full.
 * The rank of a piece is its index.
 *
 * The library looks a byte sequence up as it decodes: valid UTF-8 as the string it decodes to,
 * the rest in its list of byte pieces. The table answers as it does (see `libraryRank`), so
 * merges, and therefore counts, are the same.
 */

export interface RankTables {
  /** Every piece's bytes, one after another, by rank. */
  bytes: Uint8Array;
  /** Where rank r's bytes start (rank r ends where r + 1 starts); a piece never looked up is empty. */
  offsets: Int32Array;
  /** Rank per slot, -1 for an empty slot. */
  slots: Int32Array;
}

/** Lines handled between two yields of the builder (well under a ms once compiled; cold, a few ms). */
const LINES_PER_STEP = 512;

const B64 = new Int8Array(128).fill(-1);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/**
 * Builds the tables from a `.tiktoken` rank file read as latin1, yielding every few thousand
 * lines. Ranks must follow one another from 0, as they do in the library's files.
 */
export function* buildRankTables(file: string): Generator<void, RankTables> {
  // First pass: how many pieces and bytes (a base64 text of n chars, p of them '=', holds 3n/4 - p bytes).
  let n = 0;
  let total = 0;
  for (let at = 0; at < file.length; ) {
    const space = file.indexOf(' ', at);
    if (space < 0) break;
    let end = space;
    while (end > at && file.charCodeAt(end - 1) === 61) end--;
    total += ((space - at) * 3) / 4 - (space - end);
    const nl = file.indexOf('\n', space);
    at = nl < 0 ? file.length : nl + 1;
    if (++n % LINES_PER_STEP === 0) yield;
  }
  let size = 2;
  while (size < n * 2) size <<= 1;
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(n + 1);
  const slots = new Int32Array(size).fill(-1);
  const mask = size - 1;
  const strict = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  let put = 0;
  for (let r = 0; r < n; r++) {
    const space = file.indexOf(' ', at);
    const nl = file.indexOf('\n', space);
    const lineEnd = nl < 0 ? file.length : nl;
    let rank = 0;
    for (let i = space + 1; i < lineEnd; i++) rank = rank * 10 + file.charCodeAt(i) - 48;
    if (rank !== r || lineEnd === space + 1) throw new Error(`The rank file's line ${r + 1} is not rank ${r}.`);
    offsets[r] = put;
    const start = put;
    let acc = 0;
    let bits = 0;
    for (let i = at; i < space; i++) {
      const v = B64[file.charCodeAt(i)];
      if (v === undefined || v < 0) break;
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[put++] = (acc >> bits) & 0xff;
      }
    }
    at = lineEnd + 1;
    // A piece of valid UTF-8 that starts with a byte order mark: the library keeps it as bytes it
    // never finds (its decoder drops the mark, and it looks the rest up instead), so it is left out.
    if (put - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf && isText(strict, bytes.subarray(start, put))) {
      put = start;
    } else {
      let s = hash(bytes, start, put) & mask;
      // A piece listed twice: the later rank wins, as it does in the library's Map.
      while (slots[s] !== -1 && !same(bytes, offsets, slots[s], bytes, start, put)) s = (s + 1) & mask;
      slots[s] = r;
    }
    offsets[r + 1] = put;
    if ((r + 1) % LINES_PER_STEP === 0) yield;
  }
  return { bytes: put === total ? bytes : bytes.slice(0, put), offsets, slots };
}

function isText(strict: TextDecoder, b: Uint8Array): boolean {
  try {
    strict.decode(b);
    return true;
  } catch {
    return false;
  }
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
      if (isText(this.decoder, key.subarray(start, end))) return this.rank(key, start + 3, end);
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
