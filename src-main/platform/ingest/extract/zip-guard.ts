import zlib from 'node:zlib';
import { UnreadableFileError } from '../types.js';
import { fmtMb, fmtSize, type ExtractionLimits } from '../limits.js';

interface Entry {
  name: string;
  method: number;
  compressed: number;
  size: number;
  dataStart: number;
}

/** The entries of a zip, from its central directory (the one a reader trusts), or null when there is none. */
function entriesOf(buf: Buffer, maxEntries: number): Entry[] | null {
  // The end-of-central-directory record is in the last 64 KB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new UnreadableFileError('The document is a ZIP64 archive, which is not read (an Office document is never that large).');
  if (count > maxEntries) throw new UnreadableFileError(`The document holds ${count.toLocaleString('en-US')} parts; at most ${maxEntries.toLocaleString('en-US')} are read.`);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw new UnreadableFileError('The document is damaged (its ZIP directory is broken).');
    const method = buf.readUInt16LE(at + 10);
    let compressed = buf.readUInt32LE(at + 20);
    let size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    let local = buf.readUInt32LE(at + 42);
    // Some writers give even small parts ZIP64 sizes: the real values are in the 0x0001 extra field.
    if (size === 0xffffffff || compressed === 0xffffffff || local === 0xffffffff) {
      const end = Math.min(buf.length, at + 46 + nameLen + extraLen);
      for (let x = at + 46 + nameLen; x + 4 <= end; x += 4 + buf.readUInt16LE(x + 2)) {
        if (buf.readUInt16LE(x) !== 0x0001) continue;
        let f = x + 4;
        const next = () => (f + 8 <= end ? Number(buf.readBigUInt64LE((f += 8) - 8)) : 0);
        if (size === 0xffffffff) size = next();
        if (compressed === 0xffffffff) compressed = next();
        if (local === 0xffffffff) local = next();
        break;
      }
    }
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== 0x04034b50) throw new UnreadableFileError('The document is damaged (a ZIP entry is missing).');
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    out.push({ name, method, compressed, size, dataStart });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Inflates raw deflate data, counting its output without keeping it; stops once it passes `cap`. */
function inflatedSize(data: Buffer, cap: number): Promise<number> {
  return new Promise((resolve) => {
    const inf = zlib.createInflateRaw();
    let n = 0;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      resolve(n);
    };
    inf.on('data', (c: Buffer) => {
      n += c.length;
      if (n > cap) {
        inf.destroy();
        end();
      }
    });
    inf.on('end', end);
    inf.on('close', end);
    inf.on('error', end); // a damaged entry: the reader reports it, this only counts
    inf.end(data);
  });
}

/**
 * Refuses a zip-based document (docx, xlsx, pptx) whose parts unpack to more than the limit,
 * counting what the data really inflates to (the sizes a zip declares can lie), before any
 * reader unpacks it into memory.
 */
export async function checkZip(buf: Buffer, limits: ExtractionLimits, what = 'document'): Promise<void> {
  const entries = entriesOf(buf, limits.maxZipEntries);
  if (!entries) return; // not a well-formed zip: the reader explains
  const cap = limits.maxUnpackedBytes;
  const bomb = (total: number) =>
    new UnreadableFileError(
      `The ${what} unpacks to more than ${fmtMb(cap)} (${fmtSize(buf.length)} on disk, ${
        total > cap ? `over ${Math.floor(total / Math.max(1, buf.length)).toLocaleString('en-US')} times` : 'far more than'
      } its size); it looks built to exhaust memory and was not read.`,
    );
  let declared = 0;
  for (const e of entries) declared += e.size;
  if (declared > cap) throw bomb(declared);
  let total = 0;
  for (const e of entries) {
    const data = buf.subarray(e.dataStart, Math.min(buf.length, e.dataStart + e.compressed));
    const size = e.method === 8 ? await inflatedSize(data, cap - total) : e.method === 0 ? data.length : 0;
    total += size;
    if (total > cap) throw bomb(total);
  }
}
