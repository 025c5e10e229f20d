/**
 * PDF LZW data made by code for the hostile-input tests and bench: an ordinary encoder (to check
 * the size guard counts exactly what pdf.js decodes) and a bomb. Code widths follow the PDF
 * rule with EarlyChange 1: the width grows one code before the dictionary needs it.
 */

/** Packs codes MSB-first, widening as the decoder will. */
class CodeWriter {
  private out: number[] = [];
  private bits = 0;
  private nbits = 0;
  private width = 9;
  private next = 258;
  private fresh = true;

  write(code: number): void {
    this.bits = (this.bits << this.width) | code;
    this.nbits += this.width;
    while (this.nbits >= 8) {
      this.nbits -= 8;
      this.out.push((this.bits >>> this.nbits) & 0xff);
    }
    this.bits &= (1 << this.nbits) - 1;
    if (code === 256) {
      this.width = 9;
      this.next = 258;
      this.fresh = true;
      return;
    }
    // The decoder adds an entry for every code but the first after a clear.
    if (!this.fresh) {
      this.next++;
      const n = this.next + 1;
      if ((n & (n - 1)) === 0) this.width = Math.min(Math.log2(n) + 1, 12);
    }
    this.fresh = false;
  }

  get nextCode(): number {
    return this.next;
  }

  end(): Buffer {
    this.write(257);
    if (this.nbits > 0) this.out.push((this.bits << (8 - this.nbits)) & 0xff);
    return Buffer.from(this.out);
  }
}

/** Plain LZW encoding of `data` (clearing the dictionary before it fills). */
export function lzwEncode(data: Buffer): Buffer {
  const w = new CodeWriter();
  let dict = new Map<string, number>();
  let next = 258;
  let cur = '';
  let curCode = -1;
  for (const byte of data) {
    const key = `${cur},${byte}`;
    const known = cur === '' ? byte : dict.get(key);
    if (known !== undefined) {
      cur = key;
      curCode = known;
      continue;
    }
    w.write(curCode);
    dict.set(key, next++);
    if (next >= 4094) {
      w.write(256);
      dict = new Map();
      next = 258;
    }
    cur = `,${byte}`;
    curCode = byte;
  }
  if (curCode >= 0) w.write(curCode);
  return w.end();
}

/**
 * LZW data decoding to about `mb` MB of spaces: a run defines entries of length 2, 3, ...
 * up to 3,839 bytes (the ramp is quadratic), then the longest entry is repeated: 12 bits
 * for 3,839 bytes, so 1 GB takes about 413 KB.
 */
export function lzwBomb(mb: number): { data: Buffer; size: number } {
  const w = new CodeWriter();
  w.write(0x20);
  let size = 1;
  let last = 0x20;
  while (w.nextCode < 4096) {
    last = w.nextCode;
    size += last - 256;
    w.write(last);
  }
  const longest = last - 256;
  while (size < mb * 1024 * 1024) {
    w.write(last);
    size += longest;
  }
  return { data: w.end(), size };
}

/** A one-page PDF whose content stream is `data` under `filter`, with a correct xref table. */
export function pdfWithContent(data: Buffer, filter: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >> >>',
  ].map((b) => Buffer.from(b, 'latin1'));
  objects.push(Buffer.concat([Buffer.from(`<< /Length ${data.length} /Filter ${filter} >>\nstream\n`), data, Buffer.from('\nendstream')]));
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let at = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const b = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(b);
    at += b.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}
