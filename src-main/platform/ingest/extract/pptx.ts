import fs from 'node:fs';
import JSZip from 'jszip';
import { UnreadableFileError, type Extractor } from '../types.js';
import { isZip, sniff } from './sniff.js';
import { isEncryptedOoxml } from './word.js';
import { checkZip } from './zip-guard.js';
import { limitsOf } from '../limits.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? '';
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  });
}

/** The text runs of a DrawingML part, one line per paragraph. */
export function drawingText(xml: string): string {
  const lines: string[] = [];
  for (const para of xml.split(/<\/a:p>/)) {
    const runs = [...para.matchAll(/<a:t(?:\s[^>]*)?>([^<]*)<\/a:t>/g)].map((m) => decodeXml(m[1]));
    if (runs.length) lines.push(runs.join(''));
  }
  return lines.join('\n');
}

/** The number before `.xml` at the end of an entry's name (`slide12.xml` is 12), by scan. */
function num(name: string): number {
  if (!name.endsWith('.xml')) return 0;
  const end = name.length - 4;
  let i = end;
  while (i > 0 && name.charCodeAt(i - 1) >= 48 && name.charCodeAt(i - 1) <= 57) i--;
  return i < end ? Number(name.slice(i, end)) : 0;
}

/** PowerPoint (pptx): the text of each slide, then its speaker notes, in slide order. */
export const extractPptx: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  if (isEncryptedOoxml(buf)) throw new UnreadableFileError('The presentation is encrypted (password protected).');
  if (!isZip(buf)) {
    const what = sniff(buf.subarray(0, 64));
    throw new UnreadableFileError(`The file is not a PowerPoint presentation${what ? ` (it looks like ${what})` : ''}.`);
  }
  await checkZip(buf, limitsOf(file), 'presentation');
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(buf);
  } catch (err) {
    throw new UnreadableFileError(`The presentation is damaged: ${(err as Error).message}`);
  }
  const slides = Object.keys(zip.files)
    .filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n))
    .sort((a, b) => num(a) - num(b));
  if (!slides.length) throw new UnreadableFileError('The presentation is damaged: it has no slides.');
  for (const name of slides) {
    const n = num(name);
    const text = drawingText(await zip.file(name)!.async('string'));
    const notesFile = zip.file(`ppt/notesSlides/notesSlide${n}.xml`);
    const notes = notesFile ? drawingText(await notesFile.async('string')) : '';
    sink.text(`Slide ${n}\n${text}${notes.trim() ? `\n\nNotes: ${notes}` : ''}\n\n`);
  }
  return { slides: slides.length };
};
