import path from 'node:path';
import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * OCR with tesseract.js (WebAssembly, in its own worker thread) and the English model from
 * @tesseract.js-data/eng, read from node_modules: never a download. More languages are more
 * @tesseract.js-data/<code> packages; `langs` names them ("eng+deu").
 */
export class Ocr {
  private worker: Promise<import('tesseract.js').Worker> | null = null;

  constructor(private readonly langs = 'eng') {}

  private start(): Promise<import('tesseract.js').Worker> {
    this.worker ??= (async () => {
      const { createWorker, OEM } = await import('tesseract.js');
      const codes = this.langs.split('+');
      // Every language of one worker is read from one folder: the packages keep theirs side by side.
      const dirs = codes.map((c) => path.join(path.dirname(requireFromHere.resolve(`@tesseract.js-data/${c}/package.json`)), '4.0.0_best_int'));
      return createWorker(codes, OEM.LSTM_ONLY, { langPath: dirs[0], cacheMethod: 'none', gzip: true, logger: () => {}, errorHandler: () => {} });
    })();
    return this.worker;
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
