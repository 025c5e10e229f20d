/**
 * The built-in embedder's vectors are what they were: a known sentence gives the same vector
 * (first and last dims, captured from the model as shipped) however the embedder's process is run
 * and trimmed for memory. Stored memories and passages were embedded with these vectors; a change
 * here would silently rank them against vectors of another space.
 */
import { describe, expect, it } from 'vitest';
import { limit } from '../fixtures/until.js';
import { BuiltinEmbedder } from '../../src-main/platform/ingest/embed/builtin.js';

const TEXT = 'The bees visit the lavender by the kitchen window every morning.';
const HEAD = [0.0017161373980343342, 0.05998319759964943, -0.06291600316762924, 0.01855395920574665, -0.03329651430249214, -0.0658111497759819, -0.054507818073034286, 0.025193266570568085];
const TAIL = [0.05929280072450638, 0.02310129441320896, 0.0659739077091217, 0.0017086908919736743, -0.06607580929994583, -0.05936480686068535, -0.06759077310562134, 0.017801808193325996];

describe.runIf(process.platform === 'linux')('the built-in embedder’s vectors', () => {
  it('a known sentence gives the vector it gave before, alone and in a batch after other texts', async () => {
    const e = new BuiltinEmbedder({ idleMs: 0 });
    try {
      const [alone] = await e.embed([TEXT]);
      const [, , batched] = await e.embed(['a short one', `a longer one ${'word '.repeat(120)}`, TEXT]);
      for (const v of [alone, batched]) {
        expect(v).toHaveLength(512);
        Array.from(v.subarray(0, 8)).forEach((x, i) => expect(x).toBeCloseTo(HEAD[i], 6));
        Array.from(v.subarray(504)).forEach((x, i) => expect(x).toBeCloseTo(TAIL[i], 6));
      }
    } finally {
      await e.close();
    }
  }, limit(120_000));
});
