/**
 * When a session was last active, as chat apps say it ("Just now", "2 min ago", "3 h ago",
 * "Yesterday", "Tuesday", "Mar 3", "Mar 3, 2025"), from a `now` the caller passes (a ticking hook in
 * the app, a fixed time in tests); and which sessions share a title, so the list can number them.
 */

const MIN = 60_000;
const HOUR = 60 * MIN;

const startOfDay = (t: number) => {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
};

/** Calendar days between two times in the local zone (0: the same day, 1: yesterday). */
function daysBetween(at: number, now: number): number {
  return Math.round((startOfDay(now) - startOfDay(at)) / (24 * HOUR));
}

export function relativeDate(iso: string, now: number, locale?: string): string {
  const at = Date.parse(iso);
  if (!Number.isFinite(at)) return '';
  const ago = now - at;
  if (ago < MIN) return 'Just now';
  const days = daysBetween(at, now);
  if (ago < HOUR) return `${Math.floor(ago / MIN)} min ago`;
  if (days === 0) return `${Math.floor(ago / HOUR)} h ago`;
  if (days === 1) return 'Yesterday';
  const d = new Date(at);
  if (days < 7) return d.toLocaleDateString(locale, { weekday: 'long' });
  const sameYear = d.getFullYear() === new Date(now).getFullYear();
  return d.toLocaleDateString(locale, sameYear ? { month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' });
}

/** The full date and time, for a tooltip. */
export function fullDate(iso: string, locale?: string): string {
  const at = Date.parse(iso);
  return Number.isFinite(at) ? new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' }) : '';
}

/**
 * For sessions whose title another session shown also has: its number among them, oldest first
 * ("Plan the trip" #1, #2...). Sessions with a title of their own are not in the map.
 */
export function titleNumbers(sessions: { id: number; title: string; created_at: string }[]): Map<number, number> {
  const byTitle = new Map<string, { id: number; created_at: string }[]>();
  for (const s of sessions) {
    const key = s.title.trim().toLowerCase();
    byTitle.set(key, [...(byTitle.get(key) ?? []), s]);
  }
  const out = new Map<number, number>();
  for (const group of byTitle.values()) {
    if (group.length < 2) continue;
    [...group].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id).forEach((s, i) => out.set(s.id, i + 1));
  }
  return out;
}
