import { currentLocale, t } from '../../i18n';
import { relativeDate } from './session-dates';

/**
 * When a session was last active, as chat apps say it, in the person's language: "Just now",
 * "2 min ago", "3 h ago", "Yesterday" from the catalog; a weekday or a date (session-dates.ts)
 * in the active locale.
 */
export function sessionWhen(iso: string, now: number): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const ago = now - at;
  if (ago < 60_000) return t('sessions.when.justNow');
  if (ago < 3_600_000) return t('sessions.when.minutes', { count: Math.floor(ago / 60_000) });
  const en = relativeDate(iso, now, 'en-US');
  if (/ h ago$/.test(en)) return t('sessions.when.hours', { count: Math.floor(ago / 3_600_000) });
  if (en === 'Yesterday') return t('sessions.when.yesterday');
  return relativeDate(iso, now, currentLocale());
}
