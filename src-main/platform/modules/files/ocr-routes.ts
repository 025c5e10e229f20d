import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { ocrOperations } from '../../contract/ocr.js';
import type { OcrSettingsService } from './ocr-settings.js';

/** ext: the languages OCR reads images and scanned PDF pages in (Settings → OCR). */
export function ocrSettingsRoutes({ ocr }: { ocr: OcrSettingsService }) {
  const r = createRouter();
  serveOperations(r, ocrOperations, {
    getOcrSettings: () => ocr.view(),
    updateOcrSettings: ({ body }) => ocr.update(body),
  });
  return r;
}
