import fs from 'node:fs';
import { imageSize } from 'image-size';
import { UnreadableFileError, type Extractor } from '../types.js';
import { decodeXml } from './pptx.js';
import { sniff } from './sniff.js';
import { Ocr, OCR_IMAGE_TYPES } from './ocr.js';

/** PNG text chunks (tEXt, iTXt): titles, descriptions, software that wrote the image. */
function pngText(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 8;
  while (at + 12 <= b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const data = b.subarray(at + 8, Math.min(at + 8 + len, b.length));
    if (type === 'tEXt') {
      const z = data.indexOf(0);
      if (z > 0) out[data.toString('latin1', 0, z)] = data.toString('latin1', z + 1);
    } else if (type === 'iTXt') {
      const z = data.indexOf(0);
      // keyword \0 compression-flag compression-method language \0 translated \0 text
      if (z > 0 && data[z + 1] === 0) {
        const lang = data.indexOf(0, z + 3);
        const tr = lang >= 0 ? data.indexOf(0, lang + 1) : -1;
        if (tr >= 0) out[data.toString('latin1', 0, z)] = data.toString('utf8', tr + 1);
      }
    } else if (type === 'IEND') break;
    at += 12 + len;
  }
  return out;
}

/** Images: format, dimensions, orientation; text found inside (PNG text chunks, SVG title/desc/text). */
export const extractImage: Extractor = async (file, sink) => {
  const buf = fs.readFileSync(file.path);
  let size;
  try {
    size = imageSize(buf);
  } catch (err) {
    const what = sniff(buf.subarray(0, 64));
    throw new UnreadableFileError(`The image is damaged or not a .${file.ext} image${what ? ` (it looks like ${what})` : ''}: ${(err as Error).message}`);
  }
  if (!size.width || !size.height) throw new UnreadableFileError('The image is damaged: it has no dimensions.');
  const meta: Record<string, unknown> = { format: size.type, width: size.width, height: size.height };
  if (size.orientation) meta.orientation = size.orientation;
  if (size.images && size.images.length > 1) meta.images = size.images.length;
  if (size.type === 'png') {
    const text = pngText(buf);
    if (Object.keys(text).length) meta.text = text;
    for (const [k, v] of Object.entries(text)) sink.text(`${k}: ${v}\n`);
  } else if (size.type === 'svg') {
    const svg = buf.toString('utf8');
    const parts = [...svg.matchAll(/<(title|desc|text|tspan)\b[^>]*>([^<]+)</g)].map((m) => decodeXml(m[2]).trim()).filter(Boolean);
    if (parts.length) sink.text(parts.join('\n'));
  }
  // Text in the picture itself (a photo of a page, a screenshot), by OCR.
  if (size.type && OCR_IMAGE_TYPES.has(size.type)) {
    const ocr = new Ocr();
    try {
      const read = await ocr.recognize(buf);
      if (read.text) {
        sink.text(`\n${read.text}\n`);
        meta.ocr_pages = [1];
        meta.ocr_confidence = read.confidence;
      }
      meta.ocr_languages = ocr.used;
      if (ocr.missing.length) meta.ocr_missing_languages = ocr.missing;
    } catch (err) {
      // An image OCR cannot decode still has its dimensions: the file is not failed for it.
      meta.ocr_error = (err as Error).message ?? String(err);
    } finally {
      await ocr.close();
    }
  }
  return meta;
};
