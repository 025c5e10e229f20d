import type { ScheduleRun } from '../../../src-main/platform/contract/schedules';
import { fieldSentence, generalSentence } from '../../api/field-errors';
import { t } from '../../i18n';

export type Tone = 'ok' | 'error' | 'neutral' | 'busy';

/** A schedule run's outcome as a person reads it, and whether it can still change. */
export interface RunOutcome {
  /** "Succeeded", "Running", "Failed", "Could not start", "Stopped"… */
  word: string;
  tone: Tone;
  /** why it failed or did not start, in a sentence; null when there is nothing to add */
  reason: string | null;
  /** when it really started (its execution's start), else when it was due */
  at: string;
  /** false while it is queued, starting or running: it is worth looking at again */
  settled: boolean;
}

/** Execution statuses as stored (`canceled`), and the live `awaiting_approval`; each one's word is schedules.outcome.<word>. */
const WORDS: Record<string, { word: 'starting' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'stopped'; tone: Tone; settled: boolean }> = {
  starting: { word: 'starting', tone: 'busy', settled: false },
  running: { word: 'running', tone: 'busy', settled: false },
  awaiting_approval: { word: 'waiting', tone: 'busy', settled: false },
  succeeded: { word: 'succeeded', tone: 'ok', settled: true },
  completed: { word: 'succeeded', tone: 'ok', settled: true },
  failed: { word: 'failed', tone: 'error', settled: true },
  canceled: { word: 'stopped', tone: 'neutral', settled: true },
};

export function runOutcome(r: ScheduleRun): RunOutcome {
  const ex = r.execution;
  const at = ex?.created_at ?? r.due_at;
  if (r.error) return { word: t('schedules.outcome.couldNotStart'), tone: 'error', reason: runErrorSentence(r.error), at, settled: true };
  if (!ex) {
    return r.execution_id
      ? { word: t('schedules.outcome.removed'), tone: 'neutral', reason: t('schedules.outcome.deleted'), at, settled: true }
      : { word: t('schedules.outcome.starting'), tone: 'busy', reason: null, at, settled: false };
  }
  const w = WORDS[ex.status];
  const reason = ex.status === 'failed' && ex.error?.message ? generalSentence(new Error(ex.error.message)) : null;
  if (!w) return { word: ex.status, tone: 'neutral', reason, at, settled: true };
  return { word: t(`schedules.outcome.${w.word}`), tone: w.tone, settled: w.settled, reason, at };
}

export const TONE_BADGE: Record<Tone, string> = { ok: 'badge badge-ok', error: 'badge badge-error', neutral: 'badge', busy: 'badge badge-busy' };

/** Why a run could not start (the platform's validation wording, joined) in plain words. */
export function runErrorSentence(raw: string): string {
  if (/selected model is invalid/i.test(raw)) return fieldSentence('model', 'The selected model is invalid.');
  if (/messages? (field )?(must|is required)|last message must be from the user/i.test(raw)) return t('schedules.outcome.noMessage');
  return generalSentence(new Error(raw));
}
