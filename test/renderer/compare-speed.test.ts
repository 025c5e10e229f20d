/** Compare's speed line: estimated while an answer is written, the platform's timing once it has finished. */
import { describe, expect, it } from 'vitest';
import { compareSpeed } from '../../src-renderer/features/chat/compare-speed';

describe('compareSpeed', () => {
  const base = { output: 'x'.repeat(400), startedAt: 1000, firstAt: 1500 as number | null, endAt: null as number | null };
  it('is nothing before the first words', () => {
    expect(compareSpeed({ ...base, firstAt: null }, 2000)).toBeNull();
  });
  it('while writing: seconds to the first words and about 4 characters a token over the time since', () => {
    expect(compareSpeed(base, 3500)).toEqual({ firstSeconds: 0.5, rate: 50 });
    // Too short a stretch to say a rate.
    expect(compareSpeed(base, 1510)).toEqual({ firstSeconds: 0.5, rate: null });
    // Ended: the rate stops at the end, whatever "now" is.
    expect(compareSpeed({ ...base, endAt: 2500 }, 99_999)).toEqual({ firstSeconds: 0.5, rate: 100 });
  });
  it("once finished, the platform's own timing wins", () => {
    expect(compareSpeed({ ...base, endAt: 2500, timing: { first_token_ms: 320, tokens_per_second: 41.5 } }, 3000)).toEqual({ firstSeconds: 0.32, rate: 41.5 });
  });
});
