/**
 * The one place where what the platform refuses becomes sentences for people (UX.md "Words"):
 * a 422 `{message, errors}` turns into one sentence per field the form shows and a general
 * sentence for the rest; other failures (a server that does not answer, a refused key) into one
 * plain sentence. The API's bodies keep their field paths and validator wording; people never
 * see them. Pure functions: no React, no ApiError import (a duck-typed error is enough).
 */

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

export const FILE_TYPES_SENTENCE = 'Agent Desk reads documents, spreadsheets, slides, images, audio, video and code files.';

interface ErrorLike {
  status?: number;
  message?: string;
  errors?: Record<string, string[]>;
}

const asErrorLike = (err: unknown): ErrorLike | null => (err && typeof err === 'object' ? (err as ErrorLike) : null);

/** `providers.2.base_url` → `base_url`; `messages.0.content` → `content`. */
export const lastSegment = (key: string): string => key.split('.').filter((s) => !/^\d+$/.test(s)).pop() ?? key;

const humanName = (key: string) => lastSegment(key).replace(/_/g, ' ').replace(/\burl\b/gi, 'URL');
const capital = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

const CRON_PARTS: Record<string, [string, string]> = {
  second: ['second', '0 to 59'],
  minute: ['minute', '0 to 59'],
  hour: ['hour', '0 to 23'],
  day: ['day of the month', '1 to 31'],
  month: ['month', '1 to 12'],
  dayOfWeek: ['weekday', '0 (Sunday) to 6, or 7 for Sunday'],
};

const CRON_EXAMPLE = 'e.g. 30 9 * * 1-5 runs on weekdays at 09:30';

/** A cron parser's complaint (croner's `CronPattern: …`, or the platform's) as a sentence. */
export function cronSentence(raw: string): string {
  const m = raw.replace(/^Cron(Pattern|Options|Date)?:\s*/i, '');
  if (/five or six space separated parts|invalid configuration format/i.test(m)) return `A cron expression has five parts: minute, hour, day, month and weekday (${CRON_EXAMPLE}).`;
  const value = /Invalid value for (\w+): (-?\d+)/i.exec(m);
  if (value) {
    const [name, range] = CRON_PARTS[value[1]] ?? [value[1], 'its range'];
    return `${capital(name)} ${value[2]} does not exist: use ${range}.`;
  }
  if (/illegal characters/i.test(m)) return `Use only numbers, *, commas, dashes and slashes in a cron expression (${CRON_EXAMPLE}).`;
  if (/is empty|trailing spaces/i.test(m)) return `One part of the cron expression is empty: remove the extra space (${CRON_EXAMPLE}).`;
  if (/larger than to value/i.test(m)) return 'A range in the cron expression runs backwards: write the smaller number first, e.g. 1-5.';
  if (/never runs/i.test(m)) return 'This cron expression never runs: check the day and month.';
  return `That isn't a cron expression the scheduler understands (${CRON_EXAMPLE}).`;
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
    if (/ENOTFOUND|EAI_AGAIN/i.test(code)) return `No server named ${host.replace(/:\d+$/, '')} was found. Check the address for typos.`;
    if (/ECONNREFUSED/i.test(code)) return `Nothing answered at ${host}. Start the server there, or check the address.`;
    if (/CERT|SSL|TLS/i.test(code)) return `The server at ${host} has a certificate this computer does not trust. Check the address, or use the server's own certificate.`;
    return `The server at ${host} could not be reached. Check that it is running and that the address is right.`;
  }
  if (/^No answer within (\d+) s/i.test(raw)) return 'The server did not answer in time. Check that it is running, then try again.';
  const status = /answered (\d{3})/.exec(raw)?.[1];
  if (status === '401' || status === '403') return 'The server refused the API key. Check the key, then try again.';
  if (status === '404') return 'The server answered, but not as an OpenAI-compatible API. Check the address: it usually ends in /v1.';
  if (status === '429') return 'The server is busy or over its limit. Wait a moment, then try again.';
  if (status) return `The server answered with an error (${status}). Check its log, then try again.`;
  return scrub(raw);
}

/** Validator wording cleaned of what people do not read: field paths, class names, long lists. */
export function scrub(raw: string, label?: string): string {
  let s = raw.trim();
  s = s.replace(/^[A-Z][A-Za-z]*(Error|Exception|Pattern|Options):\s*/, '');
  // "The providers.1.base url field" → "The base URL": a dotted path with an index or an underscore.
  s = s.replace(/\b([a-z_]+\.)+(\d+\.)+[a-z_ ]+? field\b/gi, (m) => label ?? humanName(m.replace(/ field$/i, '')));
  s = s.replace(/\b[a-z_]+(?:\.\d+)+(?:\.[a-z_]+)*\b|\b[a-z]+_[a-z_]*(?:\.[a-z_]+)+\b/g, (m) => label ?? humanName(m));
  // A list of more than five items reads as its first few.
  s = s.replace(/((?:[\w+-]+(?:\.[\w+-]+)*, ){5,}[\w+-]+(?:\.[\w+-]+)*)/g, (list) => `${list.split(', ').slice(0, 3).join(', ')} and others`);
  return s;
}

/** One refusal of one field in plain words: what is wrong and what to do. */
export function fieldSentence(key: string, raw: string, label?: string): string {
  const name = label ?? humanName(key);
  const field = lastSegment(key);
  if (/must be a file of type/i.test(raw)) return `${FILE_TYPES_SENTENCE} This file's type is not one of them.`;
  if (/enter its API key again/i.test(raw)) return 'Enter the API key again: a saved key is only sent to the address it was entered for.';
  if (/cron/i.test(field) || /^CronPattern|cron expression/i.test(raw)) return cronSentence(raw);
  if (/Could not reach|answered \d{3}|No answer within/.test(raw)) return providerSentence(raw);
  if (/is required|must hold at least one|must not be empty|is empty/i.test(raw)) {
    if (/url/i.test(field)) return "Type the server's address, e.g. http://localhost:1234/v1.";
    if (/api_key/i.test(field)) return 'Type the API key.';
    if (/models_dir/i.test(field)) return 'Choose the folder that holds the GGUF files.';
    if (field === 'model') return 'Pick a model.';
    return `Fill in the ${name.toLowerCase()}.`;
  }
  if (/valid URL|http or https URL|must be an? (absolute )?http/i.test(raw)) return "That address isn't a web address. It should start with http:// or https://.";
  if (/selected .* is invalid/i.test(raw)) {
    if (field === 'model') return "No provider serves that model now. Pick one from the list, or add a provider in Settings.";
    return `Pick one of the offered choices for ${name.toLowerCase()}.`;
  }
  const long = /(?:greater than|longer than|at most) ([\d,]+) characters/i.exec(raw);
  if (long) return `${capital(name)} is too long: keep it under ${long[1]} characters.`;
  if (/already (been )?taken|distinct|already exists/i.test(raw)) return `That ${name.toLowerCase()} is already in use. Choose another.`;
  if (/must be a number|must be an integer/i.test(raw)) return `${capital(name)} must be a whole number.`;
  const between = /must be between ([\d.]+) and ([\d.]+)/i.exec(raw);
  if (between) return `${capital(name)} must be from ${between[1]} to ${between[2]}.`;
  const min = /must be at least ([\d.]+)/i.exec(raw);
  if (min) return `${capital(name)} must be at least ${min[1]}.`;
  const max = /(?:must not be|may not be) greater than ([\d.]+)/i.exec(raw);
  if (max) return `${capital(name)} must be at most ${max[1]}.`;
  return scrub(raw, name.toLowerCase());
}

/** A 413 in words, with the limit the platform named ("greater than 200 MB", "limit 4096 KB") when it named one. */
function tooLargeSentence(raw: string): string {
  const file = /must not be greater than ([\d.,]+ [KMG]B)/i.exec(raw);
  if (file) return `That file is too large: the limit is ${file[1]}. Try a smaller file.`;
  const body = /limit ([\d.,]+) KB/i.exec(raw);
  if (body) {
    const kb = Number(body[1].replace(/,/g, ''));
    return `That is too large: the limit is ${kb >= 1024 ? `${Math.round(kb / 1024)} MB` : `${kb} KB`}. Try a shorter text or a smaller file.`;
  }
  return 'That is too large for Agent Desk to take. Try a smaller file or a shorter text.';
}

/** A failure that is not about one field (a network fault, a 404, a 500) as one sentence. */
export function generalSentence(err: unknown): string {
  const e = asErrorLike(err);
  const raw = err instanceof Error ? err.message : typeof e?.message === 'string' ? e.message : String(err);
  if (e?.status === 413) return tooLargeSentence(raw);
  if (e?.status && e.status >= 500) return `Something went wrong inside Agent Desk. Try again; if it keeps happening, the log has the details.`;
  if (/Failed to fetch|NetworkError|Load failed/i.test(raw)) return 'Agent Desk could not be reached. Check that it is still running, then try again.';
  if (/Could not reach|answered \d{3}|No answer within/.test(raw)) return providerSentence(raw);
  if (/must be a file of type/i.test(raw)) return `${FILE_TYPES_SENTENCE} This file's type is not one of them.`;
  if (/^CronPattern/.test(raw)) return cronSentence(raw);
  return scrub(raw);
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
