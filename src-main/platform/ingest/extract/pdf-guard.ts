import zlib from 'node:zlib';
import { UnreadableFileError } from '../types.js';
import { fmtMb, fmtSize, type ExtractionLimits } from '../limits.js';
import { LzwCounter } from './pdf-lzw.js';

const STREAM = Buffer.from('stream');
const ENDSTREAM = Buffer.from('endstream');
const FLATE = /\/(?:FlateDecode|Fl)(?![A-Za-z0-9])/g;
const RUN_LENGTH = /\/(?:RunLengthDecode|RL)(?![A-Za-z0-9])/;
const LZW = /\/(?:LZWDecode|LZW)(?![A-Za-z0-9])/;
const EARLY_CHANGE_0 = /\/EarlyChange\s+0(?![0-9])/;

/** The decoded size of RunLength data, counted from its length bytes without decoding it. */
function runLengthSize(data: Buffer): number {
  let n = 0;
  for (let i = 0; i < data.length; ) {
    const len = data[i];
    if (len === 128) break;
    if (len < 128) {
      n += len + 1;
      i += len + 2;
    } else {
      n += 257 - len;
      i += 2;
    }
  }
  return n;
}

/** Pipes data through `stages` zlib inflaters, counting the last one's output (or what LZW makes of it); stops past `cap`. */
function decodedSize(data: Buffer, stages: number, cap: number, lzw?: LzwCounter): Promise<number> {
  return new Promise((resolve) => {
    const chain = Array.from({ length: stages }, () => zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    let n = 0;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      for (const s of chain) s.destroy();
      resolve(n);
    };
    for (let i = 0; i + 1 < chain.length; i++) chain[i].pipe(chain[i + 1]);
    const last = chain[chain.length - 1];
    last.on('data', (c: Buffer) => {
      if (lzw) n = lzw.push(c);
      else n += c.length;
      if (n > cap || lzw?.ended) end();
    });
    last.on('end', end);
    // A damaged stream: pdf.js decides what to do with it; only the size counts here.
    for (const s of chain) s.on('error', end);
    chain[0].end(data);
  });
}

/**
 * The decoded size of one stream: small single-Flate streams (most content streams and fonts)
 * synchronously, with an output cap; anything else, or one that hits the cap, streamed.
 */
async function sizeOf(data: Buffer, stages: number, cap: number, lzw?: LzwCounter): Promise<number> {
  if (stages === 0) return lzw ? lzw.push(data) : data.length;
  if (stages === 1 && !lzw && data.length <= 64 * 1024) {
    try {
      return zlib.inflateSync(data, { maxOutputLength: Math.min(cap + 1, 64 * 1024 * 1024), finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (err) {
      // Damaged data: pdf.js decides what to do with it; only an output over the cap needs the slow count.
      if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return 0;
    }
  }
  return decodedSize(data, stages, cap, lzw);
}

/**
 * Refuses a PDF whose compressed streams decode to more than the limit before pdf.js reads it:
 * pdf.js keeps a stream's whole decoded buffer, so a 1.5 MB file holding one Flate stream of
 * 1.5 GB of spaces took 3 GB of memory. Flate, LZW (alone or after Flate) and RunLength streams
 * are measured; images are skipped (text extraction never decodes them); rarer chains (LZW
 * before Flate, RunLength mixed with others) are left to the reading process's memory limit.
 */
export async function checkPdfStreams(buf: Buffer, limits: ExtractionLimits): Promise<void> {
  const cap = limits.maxPdfDecodedBytes;
  let total = 0;
  for (let at = buf.indexOf(STREAM); at >= 0; at = buf.indexOf(STREAM, at + STREAM.length)) {
    if (at >= 3 && buf.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a) continue;
    start++;
    const dict = buf.toString('latin1', Math.max(0, at - 2048), at);
    const body = dict.slice(dict.lastIndexOf(' obj') + 1);
    if (!body.includes('<<') || /\/Subtype\s*\/Image\b/.test(body) || /\/(?:DCTDecode|JPXDecode|DCT)\b/.test(body)) continue;
    const flates = [...body.matchAll(FLATE)];
    const lzwAt = body.search(LZW);
    // LZW decoded last (after any Flate stages) is counted; LZW feeding Flate is not measured here.
    const lzw = lzwAt >= 0 && flates.every((m) => (m.index ?? 0) < lzwAt) ? new LzwCounter(cap - total, !EARLY_CHANGE_0.test(body)) : undefined;
    let end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) end = buf.length;
    if (flates.length === 0 && !lzw && RUN_LENGTH.test(body)) total += runLengthSize(buf.subarray(start, end));
    else if (flates.length > 0 || lzw) total += await sizeOf(buf.subarray(start, end), Math.min(flates.length, 4), cap - total, lzw);
    else continue;
    if (total > cap) {
      throw new UnreadableFileError(
        `The PDF holds compressed data that expands to more than ${fmtMb(cap)} (${fmtSize(buf.length)} on disk); it looks built to exhaust memory and was not read.`,
      );
    }
    at = end;
  }
}

/** Refuses a PDF whose page tree claims more pages than are read (a 2 KB file can claim a billion). */
export function checkPageCount(pages: number, limits: ExtractionLimits): void {
  if (!Number.isSafeInteger(pages) || pages > limits.maxPdfPages) {
    throw new UnreadableFileError(
      `The PDF claims ${Number.isFinite(pages) ? pages.toLocaleString('en-US') : 'an impossible number of'} pages; Agent Desk reads PDFs of up to ${limits.maxPdfPages.toLocaleString('en-US')} pages.`,
    );
  }
}
