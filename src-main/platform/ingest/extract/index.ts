import type { ExtractionInput, Extractor } from '../types.js';

/**
 * The extractor for a file kind (ingest/kinds.ts) and extension, loaded on demand so a worker
 * reading a text file does not pay for loading pdf.js.
 */
export async function extractorFor(kind: string, ext: string): Promise<Extractor> {
  switch (kind) {
    case 'pdf':
      return (await import('./pdf.js')).extractPdf;
    case 'word':
      return (await import('./word.js')).extractWord;
    case 'workbook':
      return (await import('./sheet.js')).extractWorkbook;
    case 'presentation':
      return ext === 'ppt' ? (await import('./ppt.js')).extractPpt : (await import('./pptx.js')).extractPptx;
    case 'image':
      return (await import('./image.js')).extractImage;
    case 'audio':
    case 'video':
      return (await import('./media.js')).extractMedia;
    default:
      return (await import('./text.js')).extractText; // text, code, csv
  }
}

const fmtDuration = (s: number) => {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = Math.round((s % 60) * 10) / 10;
  return `${h ? `${h} h ` : ''}${m ? `${m} min ` : ''}${sec} s`;
};

/** One sentence about a media file, indexed so an agent can find and describe it. */
export function describeMedia(file: ExtractionInput, meta: Record<string, unknown>): string {
  const bits: string[] = [`File ${file.filename}:`];
  if (file.kind === 'image') {
    bits.push(`${String(meta.format ?? file.ext).toUpperCase()} image, ${meta.width} × ${meta.height} pixels.`);
  } else {
    const container = meta.container ? ` (${meta.container})` : '';
    bits.push(`${file.kind === 'video' ? 'Video' : 'Audio'}${container}`);
    if (typeof meta.duration === 'number') bits.push(`lasting ${fmtDuration(meta.duration)}.`);
    const streams = (meta.streams as { type: string; codec?: string; width?: number; height?: number }[] | undefined) ?? [];
    for (const s of streams) {
      if (s.type === 'video') bits.push(`Video stream${s.codec ? ` ${s.codec}` : ''}${s.width ? ` ${s.width} × ${s.height}` : ''}.`);
      else if (s.type === 'audio') bits.push(`Audio stream${s.codec ? ` ${s.codec}` : ''}.`);
    }
  }
  return bits.join(' ');
}
