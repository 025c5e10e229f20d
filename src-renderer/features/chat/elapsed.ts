/**
 * Words for time passing in a running answer, from timestamps and a `now` the caller passes in
 * (a ticking hook in the app, a fixed number in tests).
 */

import { t } from '../../i18n';

/** A pause in the text shorter than this is ordinary: "Writing…" stays. */
export const STALL_AFTER_S = 5;

const seconds = (fromIso: string | null | undefined, now: number): number | null => {
  const at = fromIso ? Date.parse(fromIso) : NaN;
  return Number.isFinite(at) ? Math.max(0, Math.floor((now - at) / 1000)) : null;
};

/** "1 min 5 s", "42 s". */
export function duration(s: number): string {
  if (s < 60) return t('chat.turn.seconds', { s });
  const m = Math.floor(s / 60);
  return s % 60 ? t('chat.turn.minutesSeconds', { m, s: s % 60 }) : t('chat.turn.minutes', { m });
}

/** Seconds since the last text, once that is a stall (null before). */
export function stalledSeconds(lastTextAt: string | null | undefined, now: number): number | null {
  const s = seconds(lastTextAt, now);
  return s !== null && s >= STALL_AFTER_S ? s : null;
}

/**
 * What a running answer's status says: "Writing…" while text flows; once none came for a while,
 * how long: "No new text for 42 s" (or "Waiting for the model: 12 s" before the first words).
 */
export function runningText(lastTextAt: string | null | undefined, hasText: boolean, now: number): string {
  const s = stalledSeconds(lastTextAt, now);
  if (s === null) return hasText ? t('chat.turn.writing') : t('chat.turn.waitingModel');
  return hasText ? t('chat.turn.stalled', { time: duration(s) }) : t('chat.turn.waitingModelFor', { time: duration(s) });
}

/** Time left until `untilIso` as m:ss ("1:54", "0:07"); "0:00" once past. */
export function countdown(untilIso: string, now: number): string {
  const at = Date.parse(untilIso);
  const left = Number.isFinite(at) ? Math.max(0, Math.ceil((at - now) / 1000)) : 0;
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}
