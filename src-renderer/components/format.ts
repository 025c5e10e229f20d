import { currentLocale } from '../i18n';

/**
 * Numbers, sizes, credits and dates in the language the app speaks now (Intl): "1,5 MB" and
 * "0,0123" in Portuguese, "1.5 MB" and "0.0123" in English. Called while rendering, so a
 * component that re-renders on a language change shows the new format.
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(kind: string, opts: object, make: (locale: string) => T): T {
  const locale = currentLocale();
  const key = `${kind}|${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = make(locale)));
  return f as T;
}

const numberFormat = (opts: Intl.NumberFormatOptions = {}) => cached('n', opts, (l) => new Intl.NumberFormat(l, opts));
const dateFormat = (opts: Intl.DateTimeFormatOptions) => cached('d', opts, (l) => new Intl.DateTimeFormat(l, opts));
const relativeFormat = () => cached('r', {}, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' }));

const NONE = '–';

export function formatNumber(n: number, opts?: Intl.NumberFormatOptions): string {
  return numberFormat(opts).format(n);
}

/** 512 B, 1.5 KB, 12 MB (binary units, as file managers show them). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${formatNumber(n)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${formatNumber(v, { maximumFractionDigits: v < 10 ? 1 : 0, minimumFractionDigits: v < 10 ? 1 : 0 })} ${units[i]}`;
}

/** 491400032 → "491 MB", 2019377696 → "2.0 GB" (decimal units, as model hubs show sizes). */
export function formatSize(n: number): string {
  if (n >= 1e9) return `${formatNumber(n / 1e9, { minimumFractionDigits: 1, maximumFractionDigits: 1 })} GB`;
  if (n >= 1e6) return `${formatNumber(Math.round(n / 1e6))} MB`;
  if (n >= 1e3) return `${formatNumber(Math.round(n / 1e3))} KB`;
  return `${formatNumber(n)} B`;
}

/** Credits: up to four decimals below 1 (0.0123), two above (12.5); trailing zeros dropped. */
export function formatCredits(c: number | null | undefined): string {
  if (c === null || c === undefined) return NONE;
  return formatNumber(c, { maximumFractionDigits: c < 1 ? 4 : 2 });
}

const toDate = (v: string | number | Date): Date => (v instanceof Date ? v : new Date(v));

/** A moment as people read it: "Nov 28, 2026, 9:00 PM" / "28 de nov. de 2026, 21:00". */
export function formatTime(iso: string | number | Date | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return NONE;
  const d = toDate(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFormat({ dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** A day: "Nov 28, 2026" / "28 de nov. de 2026". */
export function formatDate(iso: string | number | Date | null | undefined, opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  if (iso === null || iso === undefined || iso === '') return NONE;
  const d = toDate(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFormat(opts).format(d);
}

/** A time of day: "9:00 PM" / "21:00". */
export function formatClock(iso: string | number | Date): string {
  const d = toDate(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : dateFormat({ timeStyle: 'short' }).format(d);
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
];

/**
 * How long ago (or until): "now", "5 minutes ago", "yesterday" / "agora", "há 5 minutos",
 * "ontem"; beyond a week, the date. `now` is injectable for tests.
 */
export function formatRelative(iso: string | number | Date | null | undefined, now: number = Date.now()): string {
  if (iso === null || iso === undefined || iso === '') return NONE;
  const d = toDate(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  let v = (d.getTime() - now) / 1000;
  if (Math.abs(v) < 45) return relativeFormat().format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (Math.abs(v) < size) return relativeFormat().format(Math.round(v), unit);
    v /= size;
  }
  return formatDate(d);
}

/** "a, b and c" / "a, b e c". */
export function formatList(items: string[]): string {
  return new Intl.ListFormat(currentLocale(), { type: 'conjunction' }).format(items);
}
