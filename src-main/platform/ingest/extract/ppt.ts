import fs from 'node:fs';
import XLSX from '@e965/xlsx';
import { UnreadableFileError, type Extractor } from '../types.js';
import { isCfb, sniff } from './sniff.js';

// [MS-PPT] record types this reader cares about.
const RT_TEXT_CHARS = 0x0fa0; // TextCharsAtom: UTF-16LE
const RT_TEXT_BYTES = 0x0fa8; // TextBytesAtom: the low bytes of UTF-16 (Latin-1)
const RT_MAIN_MASTER = 0x03f8; // master slides: only "Click to edit…" placeholder text
const RT_SLIDE = 0x03ee;
const RT_NOTES = 0x03f0;

/**
 * Walks the record tree of the "PowerPoint Document" stream (every record has an 8-byte
 * header: version/instance, type, length; version 0xF marks a container) and yields the text
 * atoms in stream order: the slide list's placeholder text, then text boxes of the slides and
 * notes. Master slides are skipped; malformed lengths end the walk of that container.
 */
export function pptTexts(stream: Buffer): { texts: string[]; slides: number } {
  const texts: string[] = [];
  let slides = 0;
  const walk = (start: number, end: number, depth: number) => {
    let at = start;
    while (at + 8 <= end) {
      const verInst = stream.readUInt16LE(at);
      const type = stream.readUInt16LE(at + 2);
      const len = stream.readUInt32LE(at + 4);
      const body = at + 8;
      if (body + len > end) return;
      if ((verInst & 0xf) === 0xf) {
        if (type === RT_SLIDE) slides++;
        if (type !== RT_MAIN_MASTER && depth < 32) walk(body, body + len, depth + 1);
        if (type === RT_SLIDE || type === RT_NOTES) texts.push('');
      } else if (type === RT_TEXT_CHARS) {
        texts.push(stream.toString('utf16le', body, body + (len & ~1)));
      } else if (type === RT_TEXT_BYTES) {
        texts.push(stream.toString('latin1', body, body + len));
      }
      at = body + len;
    }
  };
  walk(0, stream.length, 0);
  return { texts, slides };
}

/** Legacy PowerPoint (ppt): text atoms read from the OLE container (via the cfb reader in @e965/xlsx). */
export const extractPpt: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  if (!isCfb(buf)) {
    const what = sniff(buf.subarray(0, 64));
    throw new UnreadableFileError(`The file is not a PowerPoint 97-2003 presentation${what ? ` (it looks like ${what})` : ''}.`);
  }
  let cfb;
  try {
    cfb = XLSX.CFB.read(buf, { type: 'buffer' });
  } catch (err) {
    throw new UnreadableFileError(`The presentation is damaged: ${(err as Error).message}`);
  }
  if (cfb.FullPaths.some((p: string) => /\/(EncryptedSummary|EncryptionInfo)$/i.test(p))) throw new UnreadableFileError('The presentation is encrypted (password protected).');
  const entry = XLSX.CFB.find(cfb, 'PowerPoint Document');
  if (!entry?.content) throw new UnreadableFileError('The file is not a PowerPoint presentation (no "PowerPoint Document" stream).');
  const { texts, slides } = pptTexts(Buffer.from(entry.content as Uint8Array));
  const seen = new Set<string>();
  for (const t of texts) {
    // PowerPoint ends paragraphs with CR and breaks lines with VT.
    // eslint-disable-next-line no-control-regex
    const clean = t.replace(/[\r\u000b]/g, '\n').trim();
    if (!clean) {
      sink.text('\n\n');
      continue;
    }
    // The slide list and the slide's own text box can hold the same string.
    if (seen.has(clean)) continue;
    seen.add(clean);
    sink.text(`${clean}\n`);
  }
  return { slides };
};
