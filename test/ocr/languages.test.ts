/**
 * OCR languages chosen in Settings (GET|PUT /api/settings/ocr): unknown codes are refused with
 * 422; a known language without its model is kept, shown as missing with what to do, and OCR
 * goes on without it; a model from an npm package (@tesseract.js-data/deu, a devDependency)
 * reads a real German phrase; a model file put in the data dir's ocr folder is used (a copy of
 * the English model under the code "ita" stands in for a user's file: no other model can be
 * downloaded here). Images are rendered by Chromium and processed by the real worker process,
 * which reads the choice from the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform, closePlatform, call } from '../api/helpers.js';
import { launchBrowser } from '../e2e/support/browser.js';
import { limit } from '../fixtures/until.js';

const ENGLISH = 'The harbour pilot boards at dawn';
const GERMAN = 'Schöne Grüße aus München und Köln';
const engModel = path.join(path.dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int', 'eng.traineddata.gz');

describe('OCR languages', () => {
  const p = makePlatform();
  const images: Record<string, Buffer> = {};

  beforeAll(async () => {
    const b = await launchBrowser();
    try {
      const page = await b.context.newPage();
      await page.setViewportSize({ width: 1000, height: 220 });
      // Each file its own bytes: identical content would reuse the first one's processing.
      const shots: [string, string, number][] = [['german', GERMAN, 40], ['english', ENGLISH, 40], ['english2', ENGLISH, 44], ['english3', ENGLISH, 48]];
      for (const [name, phrase, margin] of shots) {
        await page.setContent(`<body style="margin:${margin}px;background:#fff"><p style="font:48px DejaVu Sans, Arial, sans-serif;color:#111">${phrase}</p></body>`);
        images[name] = await page.screenshot({ type: 'png' });
      }
    } finally {
      await b.close();
    }
  }, limit(60_000));
  afterAll(() => closePlatform(p));

  const ocrOf = async (name: string, png: Buffer) => {
    const f = p.services.files.createFromBuffer(1, name, png, { userId: 1 });
    const done = await p.services.files.process(1, f.id);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const meta = (await call(p, 'GET', `/api/files/${f.id}`)).json.metadata;
    const text = (await call(p, 'GET', `/api/files/${f.id}/passages`)).json.passages.map((x: { text: string }) => x.text).join(' ');
    return { meta, text };
  };
  const choose = (languages: unknown) => call(p, 'PUT', '/api/settings/ocr', { body: { languages } });

  it('starts with English from its npm package, and shows the ocr folder', async () => {
    const r = await call(p, 'GET', '/api/settings/ocr');
    expect(r.status).toBe(200);
    expect(r.json.languages).toEqual(['eng']);
    expect(r.json.tesseract).toBe('eng');
    expect(r.json.folder).toBe(path.join(p.dir, 'ocr'));
    expect(fs.statSync(r.json.folder).isDirectory()).toBe(true);
    const byCode = new Map(r.json.available.map((l: { code: string }) => [l.code, l]));
    expect(r.json.available[0]).toMatchObject({ code: 'eng', name: 'English', chosen: true, status: 'ready', source: 'package', help: null });
    expect(byCode.get('deu')).toMatchObject({ chosen: false, status: 'ready', source: 'package' });
    const fra = byCode.get('fra') as { status: string; help: string };
    expect(fra.status).toBe('missing');
    expect(fra.help).toContain(path.join(p.dir, 'ocr'));
    expect(fra.help).toContain('fra.traineddata');
    expect(fra.help).toContain('@tesseract.js-data/fra');
  });

  it('refuses what is not a list of Tesseract codes with 422 and keeps the stored choice', async () => {
    const unknown = await choose(['eng', 'klingon']);
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors['languages.1'][0]).toContain('"klingon" is not a Tesseract language code');
    for (const bad of [[], 'eng', [42], null, Array(9).fill('eng')]) {
      const r = await choose(bad);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(typeof r.json.message).toBe('string');
    }
    const missingField = await call(p, 'PUT', '/api/settings/ocr', { body: {} });
    expect(missingField.status).toBe(422);
    expect((await call(p, 'GET', '/api/settings/ocr')).json.languages).toEqual(['eng']);
  });

  it('reads German with the model from @tesseract.js-data/deu, as "deu+eng"', async () => {
    const r = await choose(['deu', 'eng', 'deu']);
    expect(r.status).toBe(200);
    expect(r.json.languages).toEqual(['deu', 'eng']);
    expect(r.json.tesseract).toBe('deu+eng');
    const { meta, text } = await ocrOf('gruesse.png', images.german);
    expect(meta.ocr_languages).toEqual(['deu', 'eng']);
    expect(text).toContain(GERMAN);
  }, limit(180_000));

  it('keeps a chosen language whose model is missing, shows it so, and reads with the rest', async () => {
    const r = await choose(['fra']);
    expect(r.status).toBe(200);
    expect(r.json.languages).toEqual(['fra']);
    expect(r.json.available[0]).toMatchObject({ code: 'fra', chosen: true, status: 'missing', source: null });
    // Nothing chosen is usable: English rather than no OCR.
    expect(r.json.tesseract).toBe('eng');
    const { meta, text } = await ocrOf('pilot.png', images.english);
    expect(meta.ocr_languages).toEqual(['eng']);
    expect(meta.ocr_missing_languages).toEqual(['fra']);
    expect(text.toLowerCase()).toContain(ENGLISH.toLowerCase());
  }, limit(180_000));

  it('uses a model file put in the ocr folder, and says when such a file is no model', async () => {
    const folder = path.join(p.dir, 'ocr');
    fs.writeFileSync(path.join(folder, 'spa.traineddata'), 'not a model');
    fs.copyFileSync(engModel, path.join(folder, 'ita.traineddata.gz'));
    const r = await choose(['ita', 'spa']);
    expect(r.status).toBe(200);
    expect(r.json.tesseract).toBe('ita');
    expect(r.json.available[0]).toMatchObject({ code: 'ita', status: 'ready', source: 'folder' });
    expect(r.json.available[1]).toMatchObject({ code: 'spa', status: 'missing' });
    expect(r.json.available[1].help).toContain('too small');
    const { meta, text } = await ocrOf('pilot-again.png', images.english2);
    expect(meta.ocr_languages, JSON.stringify(meta)).toEqual(['ita']);
    expect(meta.ocr_missing_languages).toEqual(['spa']);
    expect(text.toLowerCase()).toContain(ENGLISH.toLowerCase());
  }, limit(180_000));

  it('shows a damaged or cut-off model in the ocr folder as missing, and OCR goes on without it', async () => {
    const folder = path.join(p.dir, 'ocr');
    fs.writeFileSync(path.join(folder, 'por.traineddata'), Buffer.alloc(64 * 1024, 7));
    const gz = fs.readFileSync(engModel);
    fs.writeFileSync(path.join(folder, 'nld.traineddata.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    const r = await choose(['por', 'nld']);
    expect(r.status).toBe(200);
    expect(r.json.available[0]).toMatchObject({ code: 'por', status: 'missing', source: null });
    expect(r.json.available[0].help).toContain('is not a Tesseract model');
    expect(r.json.available[1]).toMatchObject({ code: 'nld', status: 'missing' });
    expect(r.json.available[1].help).toContain('cut-off');
    expect(r.json.tesseract).toBe('eng');
    const { meta, text } = await ocrOf('damaged-models.png', images.english3);
    expect(meta.ocr_languages).toEqual(['eng']);
    expect(meta.ocr_missing_languages).toEqual(['por', 'nld']);
    expect(text.toLowerCase()).toContain(ENGLISH.toLowerCase());
  }, limit(180_000));
});
