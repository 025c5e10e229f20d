import fs from 'node:fs';
import mammoth from 'mammoth';
import WordExtractor from 'word-extractor';
import XLSX from '@e965/xlsx';
import { UnreadableFileError, type Extractor } from '../types.js';
import { isCfb, isZip, sniff } from './sniff.js';
import { checkZip } from './zip-guard.js';
import { limitsOf } from '../limits.js';

/** An OLE container holding "EncryptionInfo" is an encrypted OOXML file (docx/xlsx/pptx with a password). */
export function isEncryptedOoxml(buf: Buffer): boolean {
  if (!isCfb(buf)) return false;
  try {
    const cfb = XLSX.CFB.read(buf, { type: 'buffer' });
    return cfb.FullPaths.some((p: string) => /\/EncryptionInfo$/i.test(p));
  } catch {
    return false;
  }
}

async function legacyDoc(buf: Buffer): Promise<string> {
  const doc = await new WordExtractor().extract(buf);
  return [doc.getHeaders({ includeFooters: true }), doc.getBody(), doc.getFootnotes(), doc.getEndnotes(), doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true })]
    .map((s) => s.trim())
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Word documents: docx through mammoth, legacy doc through word-extractor. The container is
 * sniffed, so a doc saved with a docx name (or the reverse) still reads.
 */
export const extractWord: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  if (isEncryptedOoxml(buf)) throw new UnreadableFileError('The document is encrypted (password protected).');
  let text: string;
  let format: string;
  if (isZip(buf)) {
    format = 'docx';
    await checkZip(buf, limitsOf(file), 'Word document');
    try {
      text = (await mammoth.extractRawText({ buffer: buf })).value;
    } catch (err) {
      throw new UnreadableFileError(`The Word document is damaged: ${(err as Error).message}`);
    }
  } else if (isCfb(buf)) {
    format = 'doc';
    try {
      text = await legacyDoc(buf);
    } catch (err) {
      const msg = (err as Error).message;
      if (/encrypt|password/i.test(msg)) throw new UnreadableFileError('The document is encrypted (password protected).');
      throw new UnreadableFileError(`The Word document is damaged: ${msg}`);
    }
  } else {
    const what = sniff(buf.subarray(0, 64));
    throw new UnreadableFileError(`The file is not a Word document${what ? ` (it looks like ${what})` : ''}.`);
  }
  sink.text(text);
  return { format };
};
