/**
 * The words a running answer's status and an approval card show for time passing, from the
 * platform's timestamps and a `now` passed in (no clock read inside).
 */
import { describe, expect, it } from 'vitest';
import { countdown, duration, runningText, stalledSeconds, STALL_AFTER_S } from '../../src-renderer/features/chat/elapsed';

const at = '2026-11-21T08:52:01.000000Z';
const t0 = Date.parse(at);

describe('elapsed time in the chat', () => {
  it('says Writing… while text flows, then how long none came, counting up', () => {
    expect(runningText(at, true, t0 + 1_000)).toBe('Writing…');
    expect(runningText(at, true, t0 + (STALL_AFTER_S - 1) * 1000 + 999)).toBe('Writing…');
    expect(stalledSeconds(at, t0 + 4_999)).toBeNull();
    expect(runningText(at, true, t0 + 42_300)).toBe('No new text for 42 s');
    expect(runningText(at, true, t0 + 43_000)).toBe('No new text for 43 s');
    expect(runningText(at, true, t0 + 125_000)).toBe('No new text for 2 min 5 s');
    expect(stalledSeconds(at, t0 + 42_300)).toBe(42);
  });

  it('before the first words it waits for the model, with the time once it is long', () => {
    expect(runningText(at, false, t0 + 2_000)).toBe('Waiting for the model…');
    expect(runningText(at, false, t0 + 12_000)).toBe('Waiting for the model: 12 s');
    // No timestamp yet (the answer was just sent): nothing to count from.
    expect(runningText(null, false, t0)).toBe('Waiting for the model…');
  });

  it('counts down to a deadline as m:ss, never below zero', () => {
    const deadline = new Date(t0 + 120_000).toISOString();
    expect(countdown(deadline, t0)).toBe('2:00');
    expect(countdown(deadline, t0 + 6_200)).toBe('1:54');
    expect(countdown(deadline, t0 + 119_500)).toBe('0:01');
    expect(countdown(deadline, t0 + 200_000)).toBe('0:00');
    expect(duration(60)).toBe('1 min');
  });
});
