import { createRoute } from '@hono/zod-openapi';
import { createRouter, errorResponses, jsonBodyOf, ok } from '../../transports/http/router.js';
import { OcrSettings, OcrSettingsUpdate } from '../../contract/ocr.js';
import type { OcrSettingsService } from './ocr-settings.js';

/** ext: the languages OCR reads images and scanned PDF pages in (Settings → OCR). */
export function ocrSettingsRoutes({ ocr }: { ocr: OcrSettingsService }) {
  const r = createRouter();
  const tags = ['Files'];
  r.openapi(
    createRoute({
      method: 'get',
      path: '/settings/ocr',
      tags,
      summary: 'The OCR languages, the folder for added models, and which models are installed (ext)',
      responses: { ...ok(OcrSettings), ...errorResponses },
    }),
    (c) => c.json(ocr.view(), 200),
  );
  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/ocr',
      tags,
      summary: 'Choose the OCR languages (ext); 422 for a code Tesseract does not know; a known one without its model is kept and shown as missing',
      request: jsonBodyOf(OcrSettingsUpdate),
      responses: { ...ok(OcrSettings), ...errorResponses },
    }),
    (c) => c.json(ocr.update(c.req.valid('json')), 200),
  );
  return r;
}
