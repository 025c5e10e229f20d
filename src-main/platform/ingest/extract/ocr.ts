import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_OCR_LANGUAGES, planOcr } from './ocr-langs.js';

/** What `new Ocr()` reads with, set per file by the processing worker from the user's settings. */
let configured: { languages: readonly string[]; folder: string | null } = { languages: DEFAULT_OCR_LANGUAGES, folder: null };

/** The OCR languages (tesseract codes, in order) and the user's ocr folder for the files read next. */
export function configureOcr(languages: readonly string[], folder: string | null): void {
  configured = { languages: [...languages], folder };
}

/**
 * OCR with tesseract.js (WebAssembly, in its own worker thread). Each language's model comes
 * from an installed @tesseract.js-data/<code> package (English is a dependency) or from
 * `<code>.traineddata(.gz)` in the user's ocr folder;
 * never a download. A chosen language whose model is missing is skipped (see `missing`), and
 * English is used when none is there.
 */
export class Ocr {
  private worker: Promise<import('tesseract.js').Worker> | null = null;
  /** The codes OCR runs with ("eng", "deu"...), known once it has started. */
  used: string[] = [];
  /** Chosen codes skipped because their model is not installed. */
  missing: string[] = [];
  private readonly languages: readonly string[];
  private readonly folder: string | null;

  /** `langs` as tesseract writes them ("eng+deu"); the configured languages when omitted. */
  constructor(langs?: string) {
    this.languages = langs ? langs.split('+') : configured.languages;
    this.folder = configured.folder;
  }

  private start(): Promise<import('tesseract.js').Worker> {
    this.worker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      const plan = planOcr(this.languages, this.folder ?? '');
      if (!plan.ready.length) throw new Error('No OCR language model is installed (not even English, @tesseract.js-data/eng).');
      this.used = plan.ready.map((l) => l.code);
      this.missing = plan.missing;
      // tesseract.js reads every language from one folder (its {code, data} form is broken in
      // v7: it passes the data as the language name), so models from different places are linked
      // side by side into a folder of our own.
      const langPath = this.modelFolder(plan.ready);
      return createWorker(this.used, OEM.LSTM_ONLY, { langPath, cacheMethod: 'none', gzip: true, logger: () => {}, errorHandler: () => {} });
    })();
    return this.worker;
  }

  private linked: string | null = null;

  /** A folder holding `<code>.traineddata.gz` for each language (gzip or not: tesseract checks the bytes). */
  private modelFolder(ready: { code: string; file: string }[]): string {
    const dirs = new Set(ready.map((l) => path.dirname(l.file)));
    if (dirs.size === 1 && ready.every((l) => path.basename(l.file) === `${l.code}.traineddata.gz`)) return [...dirs][0];
    this.linked = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-ocr-'));
    for (const l of ready) {
      const to = path.join(this.linked, `${l.code}.traineddata.gz`);
      try {
        fs.symlinkSync(l.file, to);
      } catch {
        fs.copyFileSync(l.file, to); // no symlinks allowed (Windows without the privilege)
      }
    }
    return this.linked;
  }

  /** The text of an encoded image (png, jpeg, bmp, tiff, webp, gif...). */
  async recognize(image: Buffer): Promise<{ text: string; confidence: number }> {
    const w = await this.start();
    const { data } = await w.recognize(image);
    return { text: data.text.trim(), confidence: data.confidence };
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await (await w.catch(() => null))?.terminate();
    if (this.linked) fs.rmSync(this.linked, { recursive: true, force: true });
    this.linked = null;
  }
}

/** Raw pixels (1, 3 or 4 channels, as pdf.js decodes images) as a 24-bit BMP that tesseract reads. */
export function pixelsToBmp(data: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: number): Buffer {
  const row = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + row * height;
  const b = Buffer.alloc(size);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(-height, 22); // top-down rows
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      const o = 54 + y * row + x * 3;
      const [r, g, bl] = channels >= 3 ? [data[i], data[i + 1], data[i + 2]] : [data[i], data[i], data[i]];
      b[o] = bl;
      b[o + 1] = g;
      b[o + 2] = r;
    }
  }
  return b;
}

/** Page text shorter than this (after trimming) counts as "no text layer": a scan. */
export const SCANNED_PAGE_CHARS = 20;

/**
 * The text of a PDF page that has no text layer, read by OCR from the images drawn on it (a
 * scanner puts the whole page in one image). Images too small to hold text are skipped.
 */
export async function ocrPdfPage(pdf: Parameters<typeof import('unpdf').extractImages>[0], pageNumber: number, ocr: Ocr): Promise<string> {
  const { extractImages } = await import('unpdf');
  const images = await extractImages(pdf, pageNumber).catch(() => []);
  const out: string[] = [];
  for (const img of images) {
    if (img.width < 32 || img.height < 16) continue;
    const { text } = await ocr.recognize(pixelsToBmp(img.data, img.width, img.height, img.channels));
    if (text) out.push(text);
  }
  return out.join('\n\n');
}

/** Image formats (as image-size names them) that OCR reads. */
export const OCR_IMAGE_TYPES = new Set(['png', 'jpg', 'tiff', 'bmp', 'webp', 'gif']);
