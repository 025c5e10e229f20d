/**
 * OCR (tesseract.js with the English model from npm, offline): a phrase rendered as an image in
 * Chromium is read from the PNG, and from a PDF whose only page is that image (no text layer);
 * the text is indexed like any other and the metadata lists the pages read by OCR.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { makePlatform, closePlatform, call } from '../api/helpers.js';
import { launchBrowser } from '../e2e/support/browser.js';
import { limit } from '../fixtures/until.js';

const PHRASE = 'The harbour pilot boards at dawn';

describe('OCR of images and scanned PDF pages', () => {
  const p = makePlatform();
  let png: Buffer;

  beforeAll(async () => {
    const b = await launchBrowser();
    try {
      const page = await b.context.newPage();
      await page.setViewportSize({ width: 900, height: 220 });
      await page.setContent(`<body style="margin:40px;background:#fff"><p style="font:48px DejaVu Sans, Arial, sans-serif;color:#111">${PHRASE}</p></body>`);
      png = await page.screenshot({ type: 'png' });
    } finally {
      await b.close();
    }
  }, limit(60_000));
  afterAll(() => closePlatform(p));

  const processed = async (name: string, bytes: Buffer) => {
    const f = p.services.files.createFromBuffer(1, name, bytes, { userId: 1 });
    const done = await p.services.files.process(1, f.id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const detail = (await call(p, 'GET', `/api/files/${f.id}`)).json;
    const text = (await call(p, 'GET', `/api/files/${f.id}/passages`)).json.passages.map((x: any) => x.text).join(' ');
    return { id: Number(f.id), detail, text };
  };

  it('reads the phrase from a PNG screenshot and indexes it', async () => {
    const { id, detail, text } = await processed('photo-of-text.png', png);
    expect(text.toLowerCase()).toContain(PHRASE.toLowerCase());
    expect(detail.metadata.ocr_pages).toEqual([1]);
    expect(detail.metadata.width).toBe(900);
    const hits = await p.services.retrieval.searchPassages([id], 'harbour pilot dawn', 3, 'bm25');
    expect(hits.length).toBe(1);
  }, limit(120_000));

  it('reads the phrase from a PDF page that is only an image', async () => {
    const doc = await PDFDocument.create();
    const img = await doc.embedPng(png);
    const page = doc.addPage([img.width, img.height]);
    page.drawImage(img, { x: 0, y: 0, width: img.width, height: img.height });
    // A second page with a real text layer is not OCR'd.
    const textPage = doc.addPage([600, 200]);
    textPage.drawText('A page with real text on it.', { x: 40, y: 100, size: 18 });
    const { detail, text } = await processed('scan.pdf', Buffer.from(await doc.save()));
    expect(text.toLowerCase()).toContain(PHRASE.toLowerCase());
    expect(text).toContain('A page with real text on it.');
    expect(detail.metadata.ocr_pages).toEqual([1]);
    expect(detail.metadata.pages).toBe(2);
  }, limit(120_000));
});
