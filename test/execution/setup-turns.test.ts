import { describe, expect, it } from 'vitest';
import { SetupTurns } from '../../src-main/platform/modules/executions/setup-turns.js';

/**
 * Run set-ups are spread over loop iterations: a burst of them begins a few per iteration, first
 * come first served, and the I/O that is due (a short request) runs between those groups.
 */
describe('SetupTurns', () => {
  it('a burst of ten begins four per iteration, in order, one group per iteration', async () => {
    // Counts check phases: each iteration's immediates run after this one's reschedule.
    let iteration = 0;
    let ticking = true;
    const tick = () => {
      iteration++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turns = new SetupTurns(4);
    const begun: { n: number; iteration: number }[] = [];
    await Promise.all(Array.from({ length: 10 }, (_, n) => turns.next().then(() => begun.push({ n, iteration }))));
    ticking = false;

    expect(begun.map((b) => b.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const groups = [...new Set(begun.map((b) => b.iteration))];
    expect(groups.map((g) => begun.filter((b) => b.iteration === g).length)).toEqual([4, 4, 2]);
    // One group per iteration, in consecutive ones: each iteration's poll phase (due I/O) comes between them.
    expect(groups[1] - groups[0]).toBe(1);
    expect(groups[2] - groups[1]).toBe(1);
  });

  it('one alone begins one iteration later, and the next burst starts afresh', async () => {
    const turns = new SetupTurns(2);
    const order: string[] = [];
    const p = turns.next().then(() => order.push('set-up'));
    setImmediate(() => order.push('same iteration'));
    await p;
    expect(order).toEqual(['same iteration', 'set-up']);
    const later: number[] = [];
    await Promise.all([0, 1, 2].map((n) => turns.next().then(() => later.push(n))));
    expect(later).toEqual([0, 1, 2]);
  });
});
