/**
 * The decoded size of PDF LZW data, counted from its codes without decoding it: only the length
 * of each dictionary entry is kept (4096 of them), so the pass is linear in the input and its
 * memory constant, while the output can be about 2,500 times the input. The code widths, the
 * clear and end codes and EarlyChange follow pdf.js's LZWStream, the reader this guards.
 */
export class LzwCounter {
  private readonly lengths = new Uint16Array(4096);
  private bits = 0;
  private nbits = 0;
  private width = 9;
  private next = 258;
  private prev = 0;
  /** The length of the sequence the last code stood for (0 after a clear code). */
  private seq = 0;
  private total = 0;
  /** True once the end code was read or the count passed the cap: further input is ignored. */
  ended = false;

  constructor(
    private readonly cap: number,
    private readonly earlyChange = true,
  ) {
    this.lengths.fill(1, 0, 256);
  }

  /** Reads more of the code stream; answers the decoded size so far. */
  push(data: Uint8Array): number {
    for (let i = 0; i < data.length && !this.ended; i++) {
      this.bits = ((this.bits << 8) | data[i]) & 0xffffff;
      this.nbits += 8;
      while (this.nbits >= this.width && !this.ended) {
        this.nbits -= this.width;
        this.code((this.bits >>> this.nbits) & ((1 << this.width) - 1));
      }
    }
    return this.total;
  }

  private code(code: number): void {
    const hadSequence = this.seq > 0;
    if (code < 256) this.seq = 1;
    else if (code === 256) {
      this.width = 9;
      this.next = 258;
      this.seq = 0;
      return;
    } else if (code === 257) {
      this.ended = true;
      return;
    } else if (code < this.next) this.seq = this.lengths[code];
    else this.seq++; // the entry being defined: the previous sequence and its first byte
    if (hadSequence) {
      if (this.next < 4096) this.lengths[this.next] = (this.lengths[this.prev] + 1) & 0xffff;
      this.next++;
      const n = this.next + (this.earlyChange ? 1 : 0);
      if ((n & (n - 1)) === 0) this.width = Math.min(Math.log2(n) + 1, 12);
    }
    this.prev = code;
    this.total += this.seq;
    if (this.total > this.cap) this.ended = true;
  }
}
