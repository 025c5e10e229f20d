import { z } from 'zod';
import { operations } from './operation.js';
import { say } from './messages.js';

/** Tesseract's language codes (tessdata 4.0.0) with their English names. */
export const OCR_LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  afr: 'Afrikaans', amh: 'Amharic', ara: 'Arabic', asm: 'Assamese', aze: 'Azerbaijani', aze_cyrl: 'Azerbaijani (Cyrillic)',
  bel: 'Belarusian', ben: 'Bengali', bod: 'Tibetan', bos: 'Bosnian', bre: 'Breton', bul: 'Bulgarian', cat: 'Catalan',
  ceb: 'Cebuano', ces: 'Czech', chi_sim: 'Chinese (Simplified)', chi_sim_vert: 'Chinese (Simplified, vertical)',
  chi_tra: 'Chinese (Traditional)', chi_tra_vert: 'Chinese (Traditional, vertical)', chr: 'Cherokee', cos: 'Corsican',
  cym: 'Welsh', dan: 'Danish', deu: 'German', div: 'Dhivehi', dzo: 'Dzongkha', ell: 'Greek', eng: 'English',
  enm: 'English (Middle)', epo: 'Esperanto', est: 'Estonian', eus: 'Basque', fao: 'Faroese', fas: 'Persian',
  fil: 'Filipino', fin: 'Finnish', fra: 'French', frk: 'German (Fraktur)', frm: 'French (Middle)', fry: 'Frisian',
  gla: 'Scottish Gaelic', gle: 'Irish', glg: 'Galician', grc: 'Greek (Ancient)', guj: 'Gujarati', hat: 'Haitian Creole',
  heb: 'Hebrew', hin: 'Hindi', hrv: 'Croatian', hun: 'Hungarian', hye: 'Armenian', iku: 'Inuktitut', ind: 'Indonesian',
  isl: 'Icelandic', ita: 'Italian', ita_old: 'Italian (Old)', jav: 'Javanese', jpn: 'Japanese', jpn_vert: 'Japanese (vertical)',
  kan: 'Kannada', kat: 'Georgian', kat_old: 'Georgian (Old)', kaz: 'Kazakh', khm: 'Khmer', kir: 'Kyrgyz', kmr: 'Kurmanji',
  kor: 'Korean', kor_vert: 'Korean (vertical)', lao: 'Lao', lat: 'Latin', lav: 'Latvian', lit: 'Lithuanian',
  ltz: 'Luxembourgish', mal: 'Malayalam', mar: 'Marathi', mkd: 'Macedonian', mlt: 'Maltese', mon: 'Mongolian',
  mri: 'Maori', msa: 'Malay', mya: 'Burmese', nep: 'Nepali', nld: 'Dutch', nor: 'Norwegian', oci: 'Occitan', ori: 'Oriya',
  pan: 'Punjabi', pol: 'Polish', por: 'Portuguese', pus: 'Pashto', que: 'Quechua', ron: 'Romanian', rus: 'Russian',
  san: 'Sanskrit', sin: 'Sinhala', slk: 'Slovak', slv: 'Slovenian', snd: 'Sindhi', spa: 'Spanish', spa_old: 'Spanish (Old)',
  sqi: 'Albanian', srp: 'Serbian', srp_latn: 'Serbian (Latin)', sun: 'Sundanese', swa: 'Swahili', swe: 'Swedish',
  syr: 'Syriac', tam: 'Tamil', tat: 'Tatar', tel: 'Telugu', tgk: 'Tajik', tha: 'Thai', tir: 'Tigrinya', ton: 'Tongan',
  tur: 'Turkish', uig: 'Uyghur', ukr: 'Ukrainian', urd: 'Urdu', uzb: 'Uzbek', uzb_cyrl: 'Uzbek (Cyrillic)',
  vie: 'Vietnamese', yid: 'Yiddish', yor: 'Yoruba',
};

export const isOcrLanguage = (code: string): boolean => Object.hasOwn(OCR_LANGUAGE_NAMES, code);

/** ext (CONTRACT.md "OCR"): one OCR language and whether its model is on this machine. */
export const OcrLanguage = z
  .object({
    code: z.string(),
    name: z.string(),
    /** Whether it is among the chosen languages. */
    chosen: z.boolean(),
    /** `ready`: its model is installed; `missing`: OCR skips it until the model is put in place (see `help`). */
    status: z.enum(['ready', 'missing']),
    /** `package`: an installed @tesseract.js-data/<code> npm package; `folder`: a file in `folder`. */
    source: z.enum(['package', 'folder']).nullable(),
    /** For a missing model: what to do to add it. */
    help: z.string().nullable(),
  })
  .meta({ id: 'OcrLanguage' });
export type OcrLanguage = z.infer<typeof OcrLanguage>;

/** ext GET|PUT /api/settings/ocr: the languages OCR reads images and scanned pages in. */
export const OcrSettings = z
  .object({
    /** The chosen codes, in order (tesseract tries them in this order). */
    languages: z.array(z.string()),
    /** What OCR runs with now, as tesseract writes it ("eng+deu"): the chosen ones whose model is ready, English when none is. */
    tesseract: z.string(),
    /** Where to put `<code>.traineddata` or `<code>.traineddata.gz` files: the data dir's ocr folder. */
    folder: z.string(),
    /** Every Tesseract language, chosen ones first, each with whether its model is there. */
    available: z.array(OcrLanguage),
  })
  .meta({ id: 'OcrSettings' });
export type OcrSettings = z.infer<typeof OcrSettings>;

export const MAX_OCR_LANGUAGES = 8;

export const OcrSettingsUpdate = z
  .object({
    languages: z
      .array(
        z.string({ error: 'Each OCR language must be a string.' }).refine(isOcrLanguage, {
          error: (iss) => `"${String(iss.input)}" is not a Tesseract language code (for example eng, deu, fra, spa, chi_sim).`,
        }),
        { error: say.must('languages', 'be a list of Tesseract language codes') },
      )
      .min(1, { error: 'Choose at least one OCR language.' })
      .max(MAX_OCR_LANGUAGES, { error: `At most ${MAX_OCR_LANGUAGES} OCR languages: each one slows OCR down.` }),
  })
  .meta({ id: 'OcrSettingsUpdate' });
export type OcrSettingsUpdate = z.infer<typeof OcrSettingsUpdate>;

/** ext: the languages OCR reads images and scanned PDF pages in (modules/files/ocr-routes.ts handles them). */
export const ocrOperations = operations({
  getOcrSettings: { method: 'get', path: '/settings/ocr', tags: ['Files'], summary: 'The OCR languages, the folder for added models, and which models are installed (ext)', response: OcrSettings },
  updateOcrSettings: {
    method: 'put',
    path: '/settings/ocr',
    tags: ['Files'],
    summary: 'Choose the OCR languages (ext); 422 for a code Tesseract does not know; a known one without its model is kept and shown as missing',
    body: OcrSettingsUpdate,
    response: OcrSettings,
  },
});
