import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import {
  CHUNK_CHARS, EXACT_MAX_CHARS, MAX_MESSAGE_CHARS, MAX_OUTPUT_CHARS, boundedCount, countTokensSync, pieces, tokenCounter,
} from '../../src-main/platform/engine/tokens.js';
import { CHAT, call, chatBody, withFake } from '../execution/helpers.js';

/** A raw counter that records the work BPE would do (quadratic in a piece's length). */
function quadraticProbe() {
  const probe = { work: 0, longest: 0, count: (t: string) => {
    probe.work += t.length * t.length;
    probe.longest = Math.max(probe.longest, t.length);
    return Math.ceil(t.length / 4);
  } };
  return probe;
}

describe('token counting is bounded', () => {
  it('pieces cover the text exactly, none longer than the chunk, no surrogate pair split', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', 'é', '😀', 'b', 'x'), maxLength: 6000 }), (s) => {
        const ps = pieces(s);
        expect(ps.join('')).toBe(s);
        for (const p of ps) {
          expect(p.length).toBeLessThanOrEqual(CHUNK_CHARS);
          const last = p.charCodeAt(p.length - 1);
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the work handed to BPE is bounded whatever the input (no run without spaces goes whole)', () => {
    const works: number[] = [];
    for (const n of [10_000, 160_000, 320_000, 10_000_000]) {
      const probe = quadraticProbe();
      const result = boundedCount(probe.count, 'a'.repeat(n));
      expect(probe.longest).toBeLessThanOrEqual(CHUNK_CHARS);
      expect(result).toBe(Math.ceil(n / 4));
      works.push(probe.work);
    }
    // Linear up to EXACT_MAX_CHARS, then constant: 10 MB costs what 160 KB does.
    expect(works[3]).toBe(works[1]);
    expect(works[1]).toBeLessThanOrEqual(EXACT_MAX_CHARS * CHUNK_CHARS);
  });

  it('exact counts equal the tokenizer on prose and stay close on any text', async () => {
    const count = await tokenCounter();
    const prose = 'The quick brown fox jumps over the lazy dog, then rests.\nA second line follows here. '.repeat(300);
    expect(prose.length).toBeLessThan(EXACT_MAX_CHARS);
    expect(count(prose)).toBe(countTokens(prose));
    expect(countTokensSync('hello world')).toBe(countTokens('hello world'));
    const mixed = Array.from({ length: 4000 }, (_, i) => (i % 7 === 0 ? 'naïve😀 ' : `w${i}\t`)).join('');
    expect(Math.abs(count(mixed) - countTokens(mixed)) / countTokens(mixed)).toBeLessThan(0.02);
  });

  it('a 320,000-character message without spaces is counted at once (it took 57 s)', async () => {
    const count = await tokenCounter();
    const n = count('z'.repeat(320_000));
    // o200k reads "zz" as one token: the scaled count of the head is the whole's.
    expect(n).toBe(160_000);
  }, 10_000);
});

describe('message and output caps', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'ok' });
  });
  afterAll(async () => {
    await env.close();
  });

  it('a model streaming past the output cap is stopped with a clear error; the text up to the cap is kept', async () => {
    // Five 1,000,000-character tokens without spaces and no usage report.
    env.fake.set({ tokens: Array.from({ length: 5 }, (_, i) => String.fromCharCode(97 + i).repeat(1_000_000)), usage: false });
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('go'), wait_execution: true } });
      const e = r.json.responses[0];
      expect(e.status).toBe('failed');
      expect(e.error.code).toBe('output_too_long');
      expect(e.error.message).toMatch(/limit of 4,000,000 characters/);
      expect(e.output.length).toBe(MAX_OUTPUT_CHARS);
      // The app still answers.
      expect((await call(env.p, 'GET', '/api/agents')).status).toBe(200);
    } finally {
      env.fake.set({ tokens: undefined, usage: true });
    }
  }, 60_000);

  it('a message over the cap fails before the model is called, and costs nothing', async () => {
    const before = env.fake.requests.length;
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('q'.repeat(MAX_MESSAGE_CHARS + 1)), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('failed');
    expect(e.error.code).toBe('message_too_long');
    expect(e.credits).toBe(0);
    expect(env.fake.requests.length).toBe(before);
  }, 30_000);
});
