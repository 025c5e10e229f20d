import fs from 'node:fs';
import type { SettingsService } from '../../kernel/settings.js';
import { OCR_LANGUAGE_NAMES, type OcrLanguage, type OcrSettings, type OcrSettingsUpdate } from '../../contract/ocr.js';
import { DEFAULT_OCR_LANGUAGES, isOcrLanguage, ocrFolderOf, planOcr, resolveOcrLanguage } from '../../ingest/extract/ocr-langs.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    /** Tesseract codes, in order; the processing worker reads it for each file. */
    'ocr.languages': string[];
  }
}

/**
 * The languages OCR reads in (Settings → OCR). A language's model comes from an installed
 * @tesseract.js-data/<code> package or a file the user puts in `<dataDir>/ocr`; one that is
 * missing stays chosen, is shown as missing with what to do, and is skipped by OCR meanwhile.
 * The choice applies to files processed from then on.
 */
export class OcrSettingsService {
  readonly folder: string;

  constructor(
    private readonly settings: SettingsService,
    dataDir: string,
  ) {
    this.folder = ocrFolderOf(dataDir);
  }

  chosen(): string[] {
    const codes = this.settings.get('ocr.languages', DEFAULT_OCR_LANGUAGES).filter((c) => typeof c === 'string' && isOcrLanguage(c));
    return codes.length ? codes : [...DEFAULT_OCR_LANGUAGES];
  }

  view(): OcrSettings {
    // The folder exists so that Settings can point at a real place to put model files.
    try {
      fs.mkdirSync(this.folder, { recursive: true });
    } catch {
      // read-only data dir: the path is still shown; files cannot be added there then
    }
    const chosen = this.chosen();
    const describe = (code: string): OcrLanguage => {
      const r = resolveOcrLanguage(code, this.folder);
      return { code, name: OCR_LANGUAGE_NAMES[code], chosen: chosen.includes(code), status: r.status, source: r.source, help: r.status === 'missing' ? r.reason : null };
    };
    const rest = Object.keys(OCR_LANGUAGE_NAMES)
      .filter((c) => !chosen.includes(c))
      .sort((a, b) => OCR_LANGUAGE_NAMES[a].localeCompare(OCR_LANGUAGE_NAMES[b]));
    return {
      languages: chosen,
      tesseract: planOcr(chosen, this.folder)
        .ready.map((l) => l.code)
        .join('+'),
      folder: this.folder,
      available: [...chosen, ...rest].map(describe),
    };
  }

  update(body: OcrSettingsUpdate): OcrSettings {
    this.settings.set('ocr.languages', [...new Set(body.languages)]);
    return this.view();
  }
}
