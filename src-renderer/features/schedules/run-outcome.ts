import type { ScheduleRun } from '../../../src-main/platform/contract/schedules';
import { fieldSentence, generalSentence } from '../../api/field-errors';

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

/** Execution statuses as stored (`canceled`), and the live `awaiting_approval`. */
const WORDS: Record<string, { word: string; tone: Tone; settled: boolean }> = {
  starting: { word: 'Starting', tone: 'busy', settled: false },
  running: { word: 'Running', tone: 'busy', settled: false },
  awaiting_approval: { word: 'Waiting for you', tone: 'busy', settled: false },
  succeeded: { word: 'Succeeded', tone: 'ok', settled: true },
  completed: { word: 'Succeeded', tone: 'ok', settled: true },
  failed: { word: 'Failed', tone: 'error', settled: true },
  canceled: { word: 'Stopped', tone: 'neutral', settled: true },
};

export function runOutcome(r: ScheduleRun): RunOutcome {
  const ex = r.execution;
  const at = ex?.created_at ?? r.due_at;
  if (r.error) return { word: 'Could not start', tone: 'error', reason: runErrorSentence(r.error), at, settled: true };
  if (!ex) {
    return r.execution_id
      ? { word: 'Removed', tone: 'neutral', reason: 'Its conversation was deleted.', at, settled: true }
      : { word: 'Starting', tone: 'busy', reason: null, at, settled: false };
  }
  const w = WORDS[ex.status] ?? { word: ex.status, tone: 'neutral' as Tone, settled: true };
  return { ...w, reason: ex.status === 'failed' ? (ex.error?.message ?? null) : null, at };
}

export const TONE_BADGE: Record<Tone, string> = { ok: 'badge badge-ok', error: 'badge badge-error', neutral: 'badge', busy: 'badge badge-busy' };

/** Why a run could not start (the platform's validation wording, joined) in plain words. */
export function runErrorSentence(raw: string): string {
  if (/selected model is invalid/i.test(raw)) return fieldSentence('model', 'The selected model is invalid.');
  if (/messages? (field )?(must|is required)|last message must be from the user/i.test(raw)) return 'This schedule has no message to send. Edit it and type the message each run sends.';
  return generalSentence(new Error(raw));
}
