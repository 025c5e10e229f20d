/** Words of the session features: Compare's speed line (estimated while an answer is written, the platform's timing once finished) and when a session was last active, per language. */
import { describe, expect, it } from 'vitest';
import { compareSpeed } from '../../src-renderer/features/chat/compare-speed';

describe('compareSpeed', () => {
  const base = { output: 'x'.repeat(400), startedAt: 1000, firstAt: 1500 as number | null, endAt: null as number | null };
  it('is nothing before the first words', () => {
    expect(compareSpeed({ ...base, firstAt: null }, 2000)).toBeNull();
  });
  it('while writing: an estimate, seconds to the first words and about 4 characters a token over the time since', () => {
    expect(compareSpeed(base, 3500)).toEqual({ estimate: { firstSeconds: 0.5, rate: 50 } });
    // Too short a stretch to say a rate.
    expect(compareSpeed(base, 1510)).toEqual({ estimate: { firstSeconds: 0.5, rate: null } });
  });
  it("once finished: the platform's measure, and no estimate while it is being read", () => {
    expect(compareSpeed({ ...base, endAt: 2500 }, 99_999)).toBeNull();
    expect(compareSpeed({ ...base, endAt: 2500, timing: { first_token_ms: 320, tokens_per_second: 41.5 } }, 3000)).toEqual({ measured: { first_token_ms: 320, tokens_per_second: 41.5 } });
  });
});

describe('sessionWhen', () => {
  it('says when in the active language: the catalog for the last day, the locale for weekdays', async () => {
    const { i18n, applyLocale } = await import('../../src-renderer/i18n');
    const { sessionWhen } = await import('../../src-renderer/features/chat/session-when');
    const now = new Date(2026, 2, 10, 12, 0).getTime();
    const at = (d: Date) => d.toISOString();
    expect(sessionWhen(at(new Date(now - 20_000)), now)).toBe('Just now');
    expect(sessionWhen(at(new Date(now - 2 * 60_000)), now)).toBe('2 min ago');
    expect(sessionWhen(at(new Date(now - 3 * 3_600_000)), now)).toBe('3 h ago');
    expect(sessionWhen(at(new Date(2026, 2, 9, 23, 0)), now)).toBe('Yesterday');
    await applyLocale('pt-BR');
    try {
      expect(i18n.language).toBe('pt-BR');
      expect(sessionWhen(at(new Date(now - 20_000)), now)).toBe('Agora mesmo');
      expect(sessionWhen(at(new Date(now - 2 * 60_000)), now)).toBe('há 2 min');
      expect(sessionWhen(at(new Date(2026, 2, 9, 23, 0)), now)).toBe('Ontem');
      expect(sessionWhen(at(new Date(2026, 2, 6, 12, 0)), now)).toBe('sexta-feira');
    } finally {
      await applyLocale('en');
    }
  });
});
