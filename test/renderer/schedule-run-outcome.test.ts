import { describe, expect, it } from 'vitest';
import { runOutcome } from '../../src-renderer/features/schedules/run-outcome';
import { nextRefreshIn } from '../../src-renderer/features/schedules/describe';

const run = (over: Record<string, unknown> = {}) => ({ id: 1, schedule_id: 1, due_at: '2026-11-26T05:00:00.000000Z', execution_id: null, error: null, execution: null, ...over }) as any;
const ex = (status: string, error: unknown = null) => ({ id: 9, status, output: '', error, credits: null, root_id: 9, created_at: '2026-11-26T05:00:02.000000Z', updated_at: '', template_id: 1 });

describe('a schedule run in words', () => {
  it('names each state, with its real start time, and says which ones can still change', () => {
    expect(runOutcome(run())).toMatchObject({ word: 'Starting', settled: false, at: '2026-11-26T05:00:00.000000Z' });
    expect(runOutcome(run({ execution_id: 9, execution: ex('running') }))).toMatchObject({ word: 'Running', tone: 'busy', settled: false, at: '2026-11-26T05:00:02.000000Z' });
    expect(runOutcome(run({ execution_id: 9, execution: ex('succeeded') }))).toMatchObject({ word: 'Succeeded', tone: 'ok', settled: true, reason: null });
    expect(runOutcome(run({ execution_id: 9, execution: ex('failed', { message: 'The provider refused the key.', code: 'x' }) }))).toMatchObject({ word: 'Failed', reason: 'The provider refused the key.', settled: true });
    // Stopped by a person is neutral, and settled (it used to be polled forever).
    expect(runOutcome(run({ execution_id: 9, execution: ex('canceled') }))).toMatchObject({ word: 'Stopped', tone: 'neutral', settled: true });
    expect(runOutcome(run({ execution_id: 9 }))).toMatchObject({ word: 'Removed', settled: true });
    expect(runOutcome(run({ error: 'The messages field is required.' }))).toMatchObject({ word: 'Could not start', tone: 'error', reason: 'This schedule has no message to send. Edit it and type the message each run sends.' });
  });

  it('reads the list again shortly after the next due run, else every 30 seconds', () => {
    const now = Date.parse('2026-11-26T05:00:00Z');
    expect(nextRefreshIn([], now)).toBe(30_000);
    expect(nextRefreshIn([{ enabled: true, next_run_at: '2026-11-26T05:00:10Z' }], now)).toBe(11_500);
    expect(nextRefreshIn([{ enabled: false, next_run_at: null }, { enabled: true, next_run_at: '2026-11-26T06:00:00Z' }], now)).toBe(30_000);
    // Already due: soon, never in a tight loop.
    expect(nextRefreshIn([{ enabled: true, next_run_at: '2026-11-26T04:59:00Z' }], now)).toBe(1_500);
  });
});
