import { Cron } from 'croner';
import { cronSentence } from '../../api/field-errors';
import { currentLocale, t } from '../../i18n';

export interface Timing {
  cron: string | null;
  every_minutes: number | null;
  timezone: string;
}

const num = /^\d{1,2}$/;
const pad = (n: string) => n.padStart(2, '0');

function everyMinutes(n: number): string {
  if (n % 1440 === 0) return t('schedules.timing.everyDays', { count: n / 1440 });
  if (n % 60 === 0) return t('schedules.timing.everyHours', { count: n / 60 });
  return t('schedules.timing.everyMinutes', { count: n });
}

/** The common shapes of a cron expression in words; anything else is shown as the expression itself. */
function cronWords(expr: string): string {
  const f = expr.trim().split(/\s+/);
  const raw = t('schedules.timing.cron', { expr });
  if (f.length !== 5) return raw;
  const [min, hour, dom, mon, dow] = f;
  const step = /^\*\/(\d+)$/.exec(min);
  if (step && hour === '*' && dom === '*' && mon === '*' && dow === '*') return everyMinutes(Number(step[1]));
  if (num.test(min) && hour === '*' && dom === '*' && mon === '*' && dow === '*') return t('schedules.timing.hourlyAt', { minute: pad(min) });
  if (!num.test(min) || !num.test(hour) || mon !== '*') return raw;
  const at = `${pad(hour)}:${pad(min)}`;
  if (dom === '*' && dow === '*') return t('schedules.timing.dailyAt', { at });
  if (dom === '*' && dow === '1-5') return t('schedules.timing.weekdaysAt', { at });
  if (dom === '*' && (dow === '0,6' || dow === '6,0')) return t('schedules.timing.weekendsAt', { at });
  if (dom === '*' && /^[0-7]$/.test(dow)) return t('schedules.timing.weeklyAt', { day: (t('schedules.timing.days', { returnObjects: true }) as Record<number, string>)[Number(dow) % 7], at });
  if (num.test(dom) && dow === '*') return t('schedules.timing.monthlyAt', { day: Number(dom), at });
  return raw;
}

/** "Weekdays at 09:30, Europe/Paris" or "Every 15 minutes". */
export function describeTiming(timing: Timing): string {
  if (timing.every_minutes) return everyMinutes(timing.every_minutes);
  if (timing.cron) return `${cronWords(timing.cron)}, ${timing.timezone}`;
  return t('schedules.timing.none');
}

/** Whether the cron expression parses (the same parser the platform runs); the reason in plain words when it does not. */
export function cronProblem(expr: string, timezone: string): string | null {
  if (!expr.trim()) return t('schedules.timing.typeCron');
  try {
    return new Cron(expr.trim(), { paused: true, timezone }).nextRun() ? null : cronSentence('never runs');
  } catch (err) {
    return cronSentence(err instanceof Error ? err.message : '');
  }
}

/** When the next run would be, as the platform computes it; null when the timing is not valid yet. */
export function previewNextRun(t: Timing, now = new Date()): Date | null {
  if (t.every_minutes) return new Date(now.getTime() + t.every_minutes * 60_000);
  if (!t.cron || cronProblem(t.cron, t.timezone)) return null;
  return new Cron(t.cron.trim(), { paused: true, timezone: t.timezone }).nextRun(now);
}

/** Every IANA zone the browser knows, with UTC first. */
export function timeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (k: string) => string[] };
  const all = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A time in the user's locale, with the zone named when it is not the browser's own. */
export function formatAt(iso: string | Date | null, zone?: string): string {
  if (!iso) return '–';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return String(iso);
  const opts: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  if (zone && zone !== browserZone()) return `${d.toLocaleString(currentLocale(), { ...opts, timeZone: zone })} (${zone})`;
  return d.toLocaleString(currentLocale(), opts);
}

/** How often the open screen reads the schedules again, for runs and changes made elsewhere. */
const POLL_MS = 30_000;
/** A run is recorded at its due time; the list is read again this long after it. */
const AFTER_DUE_MS = 1500;

/** When to read the list again: shortly after the next due run, at the latest after POLL_MS. */
export function nextRefreshIn(schedules: { enabled: boolean; next_run_at: string | null }[], now: number): number {
  const dues = schedules.filter((s) => s.enabled && s.next_run_at).map((s) => Date.parse(s.next_run_at!) - now + AFTER_DUE_MS);
  return Math.max(AFTER_DUE_MS, Math.min(POLL_MS, ...dues.filter((d) => Number.isFinite(d))));
}
