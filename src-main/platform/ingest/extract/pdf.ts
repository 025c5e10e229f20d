import fs from 'node:fs';
import { getDocumentProxy } from 'unpdf';
import { UnreadableFileError, type Extractor } from '../types.js';
import { sniff } from './sniff.js';
import { checkPageCount, checkPdfStreams } from './pdf-guard.js';
import { limitsOf } from '../limits.js';
import { Ocr, ocrPdfPage, SCANNED_PAGE_CHARS } from './ocr.js';

/** PDF text, page by page (pdf.js through unpdf), each page's lines kept as lines. */
export const extractPdf: Extractor = async (file, sink) => {
  const data = new Uint8Array(fs.readFileSync(file.path));
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(1024, data.length));
  if (!head.toString('latin1').includes('%PDF-')) {
    const what = sniff(head);
    throw new UnreadableFileError(`The file is not a PDF${what ? ` (it looks like ${what})` : ''}.`);
  }
  const limits = limitsOf(file);
  await checkPdfStreams(Buffer.from(data.buffer, data.byteOffset, data.length), limits);
  let pdf;
  try {
    pdf = await getDocumentProxy(data, { isEvalSupported: false, stopAtErrors: false } as Parameters<typeof getDocumentProxy>[1]);
  } catch (err) {
    const e = err as Error;
    if (e.name === 'PasswordException') throw new UnreadableFileError('The PDF is encrypted (password protected).');
    throw new UnreadableFileError(`The PDF is damaged: ${e.message}`);
  }
  // Pages with no text layer (scans) are read by OCR; the metadata lists them.
  const ocr = new Ocr();
  const ocrPages: number[] = [];
  try {
    checkPageCount(pdf.numPages, limits);
    for (let i = 1; i <= pdf.numPages; i++) {
      const page = await pdf.getPage(i);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items as { str?: string; hasEOL?: boolean }[]) {
        if (typeof item.str !== 'string') continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      if (text.trim().length < SCANNED_PAGE_CHARS) {
        const read = await ocrPdfPage(pdf, i, ocr);
        if (read) {
          text = `${text}\n${read}`;
          ocrPages.push(i);
        }
      }
      page.cleanup();
      sink.text(`${text}\n\n`);
    }
    const info = (await pdf.getMetadata().catch(() => null))?.info as Record<string, unknown> | undefined;
    const meta: Record<string, unknown> = { pages: pdf.numPages };
    if (ocrPages.length) meta.ocr_pages = ocrPages;
    for (const k of ['Title', 'Author', 'Subject', 'Producer']) if (typeof info?.[k] === 'string' && info[k]) meta[k.toLowerCase()] = info[k];
    return meta;
  } finally {
    await ocr.close();
    await pdf.destroy();
  }
};
