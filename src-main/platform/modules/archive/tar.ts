import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * A small ustar writer and a strict reader, enough for Agent Desk's own archives (export and
 * backup). Entry names are short and plain (`manifest.json`, `files/12`), so no pax/GNU long
 * names are written; the reader skips any entry type other than regular files and directories
 * (links in a hostile archive are never followed or created).
 */
const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

export function tarHeader(name: string, size: number, mtimeSec = Math.floor(Date.now() / 1000)): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  const h = Buffer.alloc(BLOCK, 0);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtimeSec, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii'); // checksum counted as spaces
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

export const tarPadding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK, 0);
export const tarEnd = (): Buffer => Buffer.alloc(BLOCK * 2, 0);

/** One whole entry (header, bytes, padding) for a buffer. */
export function tarEntry(name: string, data: Buffer): Buffer {
  return Buffer.concat([tarHeader(name, data.length), data, tarPadding(data.length)]);
}

export interface TarIndexEntry {
  name: string;
  offset: number;
  size: number;
}

export class BadArchiveError extends Error {}

function field(h: Buffer, start: number, len: number): string {
  const raw = h.subarray(start, start + len);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

function parseOctal(h: Buffer, start: number, len: number, what: string): number {
  const s = field(h, start, len).trim();
  if (!/^[0-7]{1,12}$/.test(s)) throw new BadArchiveError(`The archive is damaged (bad ${what} field).`);
  return parseInt(s, 8);
}

/**
 * Lists the regular files of a tar on disk, checking every header's checksum and that each
 * entry lies inside the file. Stops at the end marker; a missing end marker means the archive
 * was cut short, which is refused rather than half-read.
 */
export function indexTar(fd: number, fileSize: number, limits: { maxEntries: number }): TarIndexEntry[] {
  const out: TarIndexEntry[] = [];
  const h = Buffer.alloc(BLOCK);
  let pos = 0;
  for (;;) {
    if (pos + BLOCK > fileSize) throw new BadArchiveError('The archive is incomplete (it ends before its end marker).');
    fs.readSync(fd, h, 0, BLOCK, pos);
    if (h.every((b) => b === 0)) return out;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    if (parseOctal(h, 148, 8, 'checksum') !== sum) throw new BadArchiveError('The archive is damaged (a header checksum does not match).');
    const size = parseOctal(h, 124, 12, 'size');
    const type = String.fromCharCode(h[156] || 48);
    const prefix = h.subarray(257, 263).toString('latin1').startsWith('ustar') ? field(h, 345, 155) : '';
    const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
    const dataStart = pos + BLOCK;
    if (dataStart + size > fileSize) throw new BadArchiveError('The archive is incomplete (an entry is cut short).');
    if (type === '0') {
      out.push({ name, offset: dataStart, size });
      if (out.length > limits.maxEntries) throw new BadArchiveError(`The archive holds more than ${limits.maxEntries} entries.`);
    }
    pos = dataStart + size + ((BLOCK - (size % BLOCK)) % BLOCK);
  }
}

export function readEntry(fd: number, e: TarIndexEntry): Buffer {
  const buf = Buffer.alloc(e.size);
  let done = 0;
  while (done < e.size) {
    const n = fs.readSync(fd, buf, done, e.size - done, e.offset + done);
    if (n <= 0) throw new BadArchiveError('The archive is incomplete.');
    done += n;
  }
  return buf;
}

/** Copies an entry's bytes to a new file (fsynced), in chunks so big files never sit in memory; returns their SHA-256. */
export function copyEntryTo(fd: number, e: TarIndexEntry, dest: string): string {
  const out = fs.openSync(dest, 'wx', 0o600);
  const hash = crypto.createHash('sha256');
  try {
    const chunk = Buffer.alloc(1024 * 1024);
    let done = 0;
    while (done < e.size) {
      const n = fs.readSync(fd, chunk, 0, Math.min(chunk.length, e.size - done), e.offset + done);
      if (n <= 0) throw new BadArchiveError('The archive is incomplete.');
      fs.writeSync(out, chunk, 0, n);
      hash.update(chunk.subarray(0, n));
      done += n;
    }
    fs.fsyncSync(out);
  } finally {
    fs.closeSync(out);
  }
  return hash.digest('hex');
}
