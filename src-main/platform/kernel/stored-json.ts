import { createLogger } from './log.js';

/**
 * The one reader of JSON the database stores in text columns (execution steps, context and turns,
 * schedule answers, tool lists, job payloads, settings...). A row damaged by a bug, an older
 * version, a hand edit or a hostile import never fails a listing: the damaged value reads as the
 * caller's fallback and is logged once (per column and row, for the life of the process).
 */

/** Where a value was read: `table.column`, and the row when there is one. */
export interface StoredPlace {
  column: string;
  id?: number | string | null;
}

type Warn = (fields: Record<string, unknown>, message: string) => void;

let warn: Warn | null = null;
const logged = new Set<string>();
/** Enough to never log the same damage twice in practice; a bound so a table of damage cannot grow it without end. */
const MAX_LOGGED = 10_000;

/** Where damage is logged (the platform's logger; tests capture it). Null restores the default. */
export function setStoredJsonLog(fn: Warn | null): void {
  warn = fn;
  logged.clear();
}

function report(place: StoredPlace, reason: string): void {
  const key = `${place.column}#${place.id ?? ''}`;
  if (logged.has(key)) return;
  if (logged.size >= MAX_LOGGED) logged.clear();
  logged.add(key);
  if (!warn) {
    const log = createLogger();
    warn = (fields, message) => log.warn(fields, message);
  }
  warn({ column: place.column, id: place.id ?? null, reason }, 'a stored JSON value is damaged; it reads as empty');
}

/**
 * Parses a stored JSON column. Null, undefined or an empty string is `fallback` (nothing stored).
 * Text that is not JSON, or JSON that `accept` refuses, is `fallback`, logged once.
 */
export function readStoredJson<T>(text: unknown, place: StoredPlace, fallback: T, accept?: (v: unknown) => boolean): T {
  if (text === null || text === undefined || text === '') return fallback;
  if (typeof text !== 'string') {
    report(place, `not text (${typeof text})`);
    return fallback;
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    report(place, 'not JSON');
    return fallback;
  }
  if (accept && !accept(v)) {
    report(place, 'not the expected shape');
    return fallback;
  }
  return v as T;
}

/** Shapes most columns hold. */
export const isArray = (v: unknown): v is unknown[] => Array.isArray(v);
export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** A stored list, keeping only the entries `keep` accepts (a list with some damaged entries reads as the rest, logged once). */
export function readStoredList<T>(text: unknown, place: StoredPlace, keep: (v: unknown) => boolean): T[] {
  const list = readStoredJson<unknown[]>(text, place, [], isArray);
  const kept = list.filter(keep);
  if (kept.length !== list.length) report(place, `${list.length - kept.length} damaged entries left out`);
  return kept as T[];
}
