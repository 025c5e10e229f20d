import fs from 'node:fs';
import { UnreadableFileError, type Extractor } from '../types.js';
import { sniff } from './sniff.js';

function encodingOf(head: Buffer): { encoding: string; skip: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  return { encoding: 'utf-8', skip: 0 };
}

/** True when the head holds bytes that text never has (NULs outside UTF-16) or invalid UTF-8 in bulk. */
function looksBinary(head: Buffer, encoding: string): boolean {
  if (encoding !== 'utf-8') return false;
  let nul = 0;
  for (const b of head) if (b === 0) nul++;
  return nul > 0;
}

function isValidUtf8(head: Buffer): boolean {
  try {
    // The last few bytes may cut a character in half.
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, Math.max(0, head.length - 4)));
    return true;
  } catch {
    return false;
  }
}

/** Plain text, code, markdown and csv: decoded in streaming slices (UTF-8/16 by BOM, else Windows-1252 when not UTF-8). */
export const extractText: Extractor = async (file, sink) => {
  const fd = fs.openSync(file.path, 'r');
  const head = Buffer.alloc(Math.min(65536, file.bytes));
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const { skip, encoding: declared } = encodingOf(head);
  let encoding = declared;
  if (looksBinary(head, encoding)) {
    const what = sniff(head);
    throw new UnreadableFileError(`The file is not text${what ? ` (it looks like ${what})` : ' (it holds binary data)'}; is its extension right?`);
  }
  if (encoding === 'utf-8' && skip === 0 && !isValidUtf8(head)) encoding = 'windows-1252';
  const decoder = new TextDecoder(encoding);
  let lines = 0;
  for await (const chunk of fs.createReadStream(file.path, { start: skip, highWaterMark: 1 << 20 })) {
    const s = decoder.decode(chunk as Buffer, { stream: true });
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) lines++;
    sink.text(s);
  }
  sink.text(decoder.decode());
  return { encoding, lines: lines + 1 };
};
