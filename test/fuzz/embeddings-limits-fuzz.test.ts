/**
 * Property-based fuzzing of /v1/embeddings around its limits (CONTRACT.md: at most 2,048 inputs,
 * 8,192 tokens per input, 300,000 tokens per request): counts, sizes and totals drawn on both sides
 * of each limit, and hostile texts (emoji, combining marks, runs without spaces). Oracle: the
 * request is a 400 in OpenAI's shape naming `input` exactly when a limit is passed (or a text is
 * empty), else a 200 with one vector per input and the tokens counted; never anything else. The
 * embedder is a fake OpenAI-compatible server, so only the platform's own bounds are exercised.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { hashVectors } from '../retrieval/helpers.js';
import { cleanup, FUZZ_SEED, fuzzPlatform } from './harness.js';
import { tokenCounter } from '../../src-main/platform/engine/tokens.js';
import { MAX_EMBEDDING_INPUT_TOKENS, MAX_EMBEDDING_INPUTS, MAX_EMBEDDING_REQUEST_TOKENS } from '../../src-main/platform/contract/embeddings.js';
import { limit } from '../fixtures/until.js';

/** `k` tokens of o200k (" hello" is one). */
const tokens = (k: number) => 'hello' + ' hello'.repeat(Math.max(0, k - 1));

const inputs: fc.Arbitrary<string[]> = fc.oneof(
  // Around the number of inputs.
  fc.integer({ min: MAX_EMBEDDING_INPUTS - 4, max: MAX_EMBEDDING_INPUTS + 4 }).map((n) => Array.from({ length: n }, (_, i) => `text ${i}`)),
  // One input around the tokens of one input, among short ones.
  fc.tuple(fc.integer({ min: MAX_EMBEDDING_INPUT_TOKENS - 12, max: MAX_EMBEDDING_INPUT_TOKENS + 12 }), fc.integer({ min: 0, max: 3 })).map(([k, others]) => [...Array.from({ length: others }, () => 'a short one'), tokens(k)]),
  // Around the tokens of a request: n inputs of k tokens.
  fc.tuple(fc.integer({ min: 36, max: 38 }), fc.integer({ min: 7_900, max: MAX_EMBEDDING_INPUT_TOKENS })).map(([n, k]) => Array.from({ length: n }, () => tokens(k))),
  // Hostile texts.
  fc.array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.constantFrom('x'.repeat(40_000), '🐝'.repeat(6_000), 'a\u0301'.repeat(12_000), ' '.repeat(50_000), '', '\u0000'.repeat(100)),
    ),
    { minLength: 1, maxLength: 6 },
  ),
);

describe('fuzz: /v1/embeddings around its limits', () => {
  const p = fuzzPlatform();
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ embed: (input) => hashVectors(input, 8) });
    const put = await call(p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model: 'fake-embed-8', base_url: fake.url, api_key: 'sk-fake' } });
    expect(put.status, put.text).toBe(200);
  }, limit(60_000));
  afterAll(async () => {
    await cleanup(p);
    await fake?.close();
  });

  it(
    'answers 400 on input exactly past a limit, else one vector per input with its tokens',
    async () => {
      const count = await tokenCounter();
      const seen = { refused: 0, embedded: 0 };
      await fc.assert(
        fc.asyncProperty(inputs, fc.boolean(), async (texts, asString) => {
          const input = asString && texts.length === 1 ? texts[0] : texts;
          const counts = texts.map((t) => count(t));
          const total = counts.reduce((a, b) => a + b, 0);
          let over = texts.length > MAX_EMBEDDING_INPUTS || texts.some((t) => t.length === 0);
          // Counting stops at the first text past a limit, as the server's does.
          let sum = 0;
          for (const n of counts) {
            if (over) break;
            sum += n;
            over = n > MAX_EMBEDDING_INPUT_TOKENS || sum > MAX_EMBEDDING_REQUEST_TOKENS;
          }
          const a = await call(p, 'POST', '/v1/embeddings', { body: { model: 'fake-embed-8', input } });
          const where = `${texts.length} inputs, tokens ${counts.slice(0, 4).join(',')}${counts.length > 4 ? ',…' : ''} (total ${total})`;
          if (over) {
            seen.refused++;
            expect(a.status, where).toBe(400);
            expect(a.json?.error, where).toMatchObject({ type: 'invalid_request_error', param: 'input' });
            expect(typeof a.json.error.message, where).toBe('string');
          } else {
            seen.embedded++;
            expect(a.status, `${where}: ${a.text.slice(0, 200)}`).toBe(200);
            expect(a.json.data, where).toHaveLength(texts.length);
            expect(a.json.usage.prompt_tokens, where).toBe(total);
          }
        }),
        { seed: FUZZ_SEED, numRuns: Number(process.env.FUZZ_RUNS) || 40, endOnFailure: true },
      );
      console.info(`[fuzz] /v1/embeddings limits, seed ${FUZZ_SEED}: ${seen.refused} refused, ${seen.embedded} embedded`);
      // Both sides of the limits were reached.
      expect(seen.refused).toBeGreaterThan(0);
      expect(seen.embedded).toBeGreaterThan(0);
    },
    limit(240_000),
  );
});
