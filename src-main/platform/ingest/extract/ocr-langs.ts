import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { isOcrLanguage, OCR_LANGUAGE_NAMES } from '../../contract/ocr.js';
import { SettingsStore } from '../../kernel/settings-store.js';

const requireFromHere = createRequire(import.meta.url);

/** The settings key holding the chosen OCR languages, in order (tesseract codes). */
export const OCR_LANGUAGES_KEY = 'ocr.languages' as const;
/** English ships with the app (@tesseract.js-data/eng, a dependency): always there, offline. */
export const DEFAULT_OCR_LANGUAGES = ['eng'];

export { isOcrLanguage, OCR_LANGUAGE_NAMES };

/** Where the user may put `<code>.traineddata` or `<code>.traineddata.gz` files: `<dataDir>/ocr`. */
export const ocrFolderOf = (dataDir: string): string => path.join(dataDir, 'ocr');

/** A traineddata smaller than this is not one (a stub, an error page saved under the name). */
const MIN_TRAINEDDATA_BYTES = 1024;

export type OcrLanguageSource =
  | { status: 'ready'; source: 'package' | 'folder'; file: string }
  | { status: 'missing'; source: null; file: null; reason: string };

/** The npm package's LSTM-only model (what the app's OCR runs), when that package is installed. */
function packageFile(code: string): string | null {
  let pkg: string;
  try {
    pkg = requireFromHere.resolve(`@tesseract.js-data/${code}/package.json`);
  } catch {
    return null;
  }
  const file = path.join(path.dirname(pkg), '4.0.0_best_int', `${code}.traineddata.gz`);
  return fs.existsSync(file) ? file : null;
}

/**
 * Where a language's model comes from: an installed @tesseract.js-data/<code> package first (it
 * ships with the app, checked), else a file the user put in the ocr folder. Never a download.
 */
export function resolveOcrLanguage(code: string, folder: string): OcrLanguageSource {
  if (!isOcrLanguage(code)) return { status: 'missing', source: null, file: null, reason: `"${code}" is not a Tesseract language code.` };
  const fromPackage = packageFile(code);
  if (fromPackage) return { status: 'ready', source: 'package', file: fromPackage };
  let bad = '';
  for (const name of [`${code}.traineddata`, `${code}.traineddata.gz`]) {
    const file = path.join(folder, name);
    let size: number;
    try {
      const st = fs.statSync(file);
      if (!st.isFile()) continue;
      size = st.size;
    } catch {
      continue;
    }
    if (size < MIN_TRAINEDDATA_BYTES) {
      bad = `${name} in ${folder} is too small to be a Tesseract model; replace it with the real file.`;
      continue;
    }
    const wrong = trainedDataProblem(file);
    if (!wrong) return { status: 'ready', source: 'folder', file };
    bad = `${name} in ${folder} ${wrong}; replace it with a model from tesseract-ocr's tessdata_best or tessdata_fast.`;
  }
  const reason = bad
    ? bad
    : `No model for ${OCR_LANGUAGE_NAMES[code]}: put ${code}.traineddata (or ${code}.traineddata.gz, from the tessdata_best or tessdata_fast repositories of tesseract-ocr) in ${folder}, or install the npm package @tesseract.js-data/${code}.`;
  return { status: 'missing', source: null, file: null, reason };
}

/** Index of the LSTM network among a traineddata's entries (tesseract's TESSDATA_LSTM). */
const LSTM_ENTRY = 17;

const checked = new Map<string, { key: string; problem: string | null }>();

/**
 * Why a file is not a usable model, or null: the whole file is read (and inflated when gzip) and
 * its header checked (a count of entries, then each one's offset, -1 when absent, in order and
 * inside the data). A damaged or truncated model would otherwise bring down tesseract's worker
 * and with it the reading process. Results are kept per file until it changes.
 */
export function trainedDataProblem(file: string): string | null {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return 'cannot be read';
  }
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = checked.get(file);
  if (hit?.key === key) return hit.problem;
  const problem = headerProblem(file);
  checked.set(file, { key, problem });
  return problem;
}

function headerProblem(file: string): string | null {
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
    if (data[0] === 0x1f && data[1] === 0x8b) data = zlib.gunzipSync(data);
  } catch {
    return 'cannot be read (or is a damaged or cut-off gzip file)';
  }
  if (data.length < 4) return 'is not a Tesseract model';
  const count = data.readInt32LE(0);
  if (count < 1 || count > 100 || data.length < 4 + 8 * count) return 'is not a Tesseract model';
  let last = 4 + 8 * count - 1;
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) {
    const o = Number(data.readBigInt64LE(4 + 8 * i));
    offsets.push(o);
    if (o === -1) continue;
    if (o <= last || o >= data.length) return 'is not a Tesseract model (damaged or cut off)';
    last = o;
  }
  if (!(offsets[LSTM_ENTRY] >= 0)) return 'has no LSTM network (an old Tesseract 3 model)';
  return null;
}

/** What OCR runs with: the chosen languages whose model is there, in order; English when none is. */
export interface OcrPlan {
  /** Codes with their model file, in the chosen order. */
  ready: { code: string; file: string }[];
  /** Chosen codes skipped for a missing model. */
  missing: string[];
}

export function planOcr(chosen: readonly string[], folder: string): OcrPlan {
  const ready: OcrPlan['ready'] = [];
  const missing: string[] = [];
  for (const code of chosen) {
    const r = resolveOcrLanguage(code, folder);
    if (r.status === 'ready') ready.push({ code, file: r.file });
    else missing.push(code);
  }
  if (!ready.length) {
    // Nothing usable chosen: English, which ships with the app, rather than no OCR at all.
    const eng = resolveOcrLanguage('eng', folder);
    if (eng.status === 'ready') ready.push({ code: 'eng', file: eng.file });
  }
  return { ready, missing };
}

/** The stored choice (a JSON array in the settings table), tolerant of a damaged value. */
export function parseOcrLanguages(raw: string | undefined | null): string[] {
  if (!raw) return DEFAULT_OCR_LANGUAGES;
  try {
    const v: unknown = JSON.parse(raw);
    if (Array.isArray(v)) {
      const codes = v.filter((c): c is string => typeof c === 'string' && isOcrLanguage(c));
      if (codes.length) return codes;
    }
  } catch {
    // fall through to the default
  }
  return DEFAULT_OCR_LANGUAGES;
}

/** The user's choice as the processing worker reads it from the platform database. */
export function storedOcrLanguages(db: Database.Database): string[] {
  try {
    return parseOcrLanguages(new SettingsStore(db).value(OCR_LANGUAGES_KEY));
  } catch {
    return DEFAULT_OCR_LANGUAGES; // a database without settings (a bare test fixture): English
  }
}
