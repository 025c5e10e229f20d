/**
 * The one place where what the platform refuses becomes sentences for people (UX.md "Words"):
 * a 422 `{message, errors}` turns into one sentence per field the form shows and a general
 * sentence for the rest; other failures (a server that does not answer, a refused key) into one
 * plain sentence. The API's bodies keep their field paths and validator wording; people never
 * see them. Pure functions: no React, no ApiError import (a duck-typed error is enough). The words
 * are the catalogs' (errors.*), in the language the app speaks; a platform sentence the app does
 * not recognise is shown as it is in English and as a general sentence in another language.
 */
import { platformText, t } from '../i18n';
import { WORDED_HERE } from './errors';

export interface Worded {
  /** what the form shows above its buttons; null when every problem sits under its field */
  general: string | null;
  /** a sentence under each field the form names, by the form's own field name */
  fields: Record<string, string>;
}

export interface WordOptions {
  /**
   * The fields this form shows, by its own names, with the label a person reads ("Base URL").
   * Errors of other fields go to the general sentence.
   */
  fields?: Record<string, string>;
  /**
   * The form's field for a platform error key (`providers.2.base_url` → `base_url`), or null when
   * the key is not this form's. Default: the key's last named segment. `message` helps where a key
   * names a list rather than a field.
   */
  field?: (key: string, message: string) => string | null;
}

/** What Agent Desk reads, in a sentence (UX.md: no list of 60 extensions). */
export const fileTypesSentence = () => t('errors.fileTypes');

interface ErrorLike {
  status?: number;
  message?: string;
  errors?: Record<string, string[]>;
  code?: string;
}

const asErrorLike = (err: unknown): ErrorLike | null => (err && typeof err === 'object' ? (err as ErrorLike) : null);

/** `providers.2.base_url` → `base_url`; `messages.0.content` → `content`. */
export const lastSegment = (key: string): string => key.split('.').filter((s) => !/^\d+$/.test(s)).pop() ?? key;

/** A field's name in running text: the catalog's name for it, else (in English) its key in words. */
const humanName = (key: string) => {
  const field = lastSegment(key);
  const known = (t('errors.fieldNames', { returnObjects: true }) as Record<string, string>)[field];
  return known ?? platformText(field.replace(/_/g, ' ').replace(/\burl\b/gi, 'URL'), () => t('errors.thisField'));
};
const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** croner's names of a cron expression's parts (each one's words are errors.cron.parts.<name>). */
const CRON_PARTS = new Set(['second', 'minute', 'hour', 'day', 'month', 'dayOfWeek']);

/** A cron parser's complaint (croner's `CronPattern: …`, or the platform's) as a sentence. */
export function cronSentence(raw: string): string {
  const m = raw.replace(/^Cron(Pattern|Options|Date)?:\s*/i, '');
  const example = t('errors.cron.example');
  if (/five or six space separated parts|invalid configuration format/i.test(m)) return t('errors.cron.parts5', { example });
  const value = /Invalid value for (\w+): (-?\d+)/i.exec(m);
  if (value) {
    if (!CRON_PARTS.has(value[1])) return t('errors.cron.outOfRange', { name: value[1], value: value[2] });
    const part = (t('errors.cron.parts', { returnObjects: true }) as Record<string, { name: string; range: string }>)[value[1]];
    return t('errors.cron.noSuch', { name: capital(part.name), value: value[2], range: part.range });
  }
  if (/illegal characters/i.test(m)) return t('errors.cron.characters', { example });
  if (/is empty|trailing spaces/i.test(m)) return t('errors.cron.empty', { example });
  if (/larger than to value/i.test(m)) return t('errors.cron.backwards');
  if (/never runs/i.test(m)) return t('errors.cron.never');
  return t('errors.cron.unknown', { example });
}

const HOST = /https?:\/\/([^/\s)]+)/i;

/**
 * A provider failure as the platform words it ("Could not reach Server at 127.0.0.1:9 at
 * http://127.0.0.1:9 (ECONNREFUSED).", "… answered 401: …", "No answer within 8 s.") in plain words.
 */
export function providerSentence(raw: string): string {
  const reach = /^Could not reach .*? at (https?:\/\/\S+?) \((.+)\)\.?$/s.exec(raw.trim());
  if (reach) {
    const host = HOST.exec(reach[1])?.[1] ?? reach[1];
    const code = reach[2];
    if (/ENOTFOUND|EAI_AGAIN/i.test(code)) return t('errors.provider.notFound', { host: host.replace(/:\d+$/, '') });
    if (/ECONNREFUSED/i.test(code)) return t('errors.provider.refused', { host });
    if (/CERT|SSL|TLS/i.test(code)) return t('errors.provider.certificate', { host });
    return t('errors.provider.unreachable', { host });
  }
  if (/^No answer within (\d+) s/i.test(raw)) return t('errors.provider.timeout');
  const status = /answered (\d{3})/.exec(raw)?.[1];
  if (status === '401' || status === '403') return t('errors.provider.key');
  if (status === '404') return t('errors.provider.notOpenAi');
  if (status === '429') return t('errors.provider.busy');
  if (status) return t('errors.provider.status', { status });
  return platformText(scrub(raw), () => t('errors.provider.other'));
}

/** Validator wording cleaned of what people do not read: field paths, class names, long lists. */
export function scrub(raw: string, label?: string): string {
  let s = raw.trim();
  s = s.replace(/^[A-Z][A-Za-z]*(Error|Exception|Pattern|Options):\s*/, '');
  // "The providers.1.base url field" → "The base URL": a dotted path with an index or an underscore.
  s = s.replace(/\b([a-z_]+\.)+(\d+\.)+[a-z_ ]+? field\b/gi, (m) => label ?? humanName(m.replace(/ field$/i, '')));
  s = s.replace(/\b[a-z_]+(?:\.\d+)+(?:\.[a-z_]+)*\b|\b[a-z]+_[a-z_]*(?:\.[a-z_]+)+\b/g, (m) => label ?? humanName(m));
  // A list of more than five items reads as its first few.
  s = s.replace(/((?:[\w+-]+(?:\.[\w+-]+)*, ){5,}[\w+-]+(?:\.[\w+-]+)*)/g, (list) => t('errors.andOthers', { list: list.split(', ').slice(0, 3).join(', ') }));
  return s;
}

/** One refusal of one field in plain words: what is wrong and what to do. */
export function fieldSentence(key: string, raw: string, label?: string): string {
  const name = label ?? humanName(key);
  const field = lastSegment(key);
  // The name inside a sentence ("Fill in the base URL."), and at its start ("Base URL must be…").
  const lower = name.toLowerCase();
  const Name = capital(name);
  if (/must be a file of type/i.test(raw)) return t('errors.fileType', { types: fileTypesSentence() });
  if (/enter its API key again/i.test(raw)) return t('errors.field.keyAgain');
  if (/cron/i.test(field) || /^CronPattern|cron expression/i.test(raw)) return cronSentence(raw);
  if (/Could not reach|answered \d{3}|No answer within/.test(raw)) return providerSentence(raw);
  if (/is required|must hold at least one|must not be empty|is empty/i.test(raw)) {
    if (/url/i.test(field)) return t('errors.field.typeUrl');
    if (/api_key/i.test(field)) return t('errors.field.typeKey');
    if (/models_dir/i.test(field)) return t('errors.field.chooseFolder');
    if (field === 'model') return t('errors.field.pickModel');
    return t('errors.field.fillIn', { name: lower });
  }
  if (/valid URL|http or https URL|must be an? (absolute )?http/i.test(raw)) return t('errors.field.notWebAddress');
  if (/selected .* is invalid/i.test(raw)) {
    if (field === 'model') return t('errors.field.modelNotServed');
    return t('errors.field.pickOffered', { name: lower });
  }
  const long = /(?:greater than|longer than|at most) ([\d,]+) characters/i.exec(raw);
  if (long) return t('errors.field.tooLong', { name: Name, lower, max: long[1] });
  if (/already (been )?taken|distinct|already exists/i.test(raw)) return t('errors.field.taken', { name: lower });
  if (/must be a number|must be an integer/i.test(raw)) return t('errors.field.whole', { name: Name, lower });
  const between = /must be between ([\d.]+) and ([\d.]+)/i.exec(raw);
  if (between) return t('errors.field.between', { name: Name, lower, min: between[1], max: between[2] });
  const min = /must be at least ([\d.]+)/i.exec(raw);
  if (min) return t('errors.field.atLeast', { name: Name, lower, min: min[1] });
  const max = /(?:must not be|may not be) greater than ([\d.]+)/i.exec(raw);
  if (max) return t('errors.field.atMost', { name: Name, lower, max: max[1] });
  return platformText(scrub(raw, lower), () => t('errors.field.notAccepted', { name: lower }));
}

/** A 413 in words, with the limit the platform named ("greater than 200 MB", "limit 4096 KB") when it named one. */
function tooLargeSentence(raw: string): string {
  const file = /must not be greater than ([\d.,]+ [KMG]B)/i.exec(raw);
  if (file) return t('errors.tooLarge.file', { limit: file[1] });
  const body = /limit ([\d.,]+) KB/i.exec(raw);
  if (body) {
    const kb = Number(body[1].replace(/,/g, ''));
    return t('errors.tooLarge.body', { limit: kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} KB` });
  }
  return t('errors.tooLarge.any');
}

/** A failure that is not about one field (a network fault, a 404, a 500) as one sentence. */
export function generalSentence(err: unknown): string {
  const e = asErrorLike(err);
  const raw = err instanceof Error ? err.message : typeof e?.message === 'string' ? e.message : String(err);
  // A refusal the app made before sending is already its own sentence (file, size, limit).
  if (e?.status === 413) return e.code === WORDED_HERE ? raw : tooLargeSentence(raw);
  if (e?.status && e.status >= 500) return t('errors.general.inside');
  if (/Failed to fetch|NetworkError|Load failed/i.test(raw)) return t('errors.general.unreachable');
  if (/Could not reach|answered \d{3}|No answer within/.test(raw)) return providerSentence(raw);
  if (/must be a file of type/i.test(raw)) return t('errors.fileType', { types: fileTypesSentence() });
  if (/^CronPattern/.test(raw)) return cronSentence(raw);
  // The platform's own sentence (an answer with a status) is English; the app's own errors are already in its language.
  return typeof e?.status === 'number' ? platformText(scrub(raw), () => t('errors.general.refused')) : scrub(raw);
}

/**
 * A refusal in sentences: one under each field the form shows (`opts.fields`), the others and
 * anything that is not a 422 as the general sentence.
 */
export function wordErrors(err: unknown, opts: WordOptions = {}): Worded {
  if (!err) return { general: null, fields: {} };
  const e = asErrorLike(err);
  const shown = opts.fields ?? {};
  const toField = opts.field ?? ((key: string) => lastSegment(key));
  if (e?.status !== 422 || !e.errors || typeof e.errors !== 'object' || !Object.keys(e.errors).length) return { general: generalSentence(err), fields: {} };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  for (const [key, messages] of Object.entries(e.errors)) {
    const first = Array.isArray(messages) ? messages[0] : String(messages);
    if (!first) continue;
    const field = toField(key, first);
    if (field !== null && field in shown) {
      // The form's own field name says what it is where the key names a list (`providers`).
      fields[field] ??= fieldSentence(lastSegment(key) === field ? key : field, first, shown[field]);
      continue;
    }
    const sentence = fieldSentence(key, first);
    if (!rest.includes(sentence)) rest.push(sentence);
  }
  return { general: rest.length ? rest.slice(0, 2).join(' ') : null, fields };
}

/** Any failure as the one sentence a person reads where no field is at hand (toasts, lists, notes). */
export function sentenceOf(err: unknown): string {
  const w = wordErrors(err);
  return w.general ?? Object.values(w.fields)[0] ?? generalSentence(err);
}
