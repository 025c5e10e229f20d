/**
 * Hybrid search keeps a quoted bm25 hit at its bm25 place (fusion.ts), for file passages and
 * memories alike: the service hands the fusion the query and the bm25 hits' text. The embedder is
 * a fake whose vectors favour the passages that say the same thing in another order, as the
 * built-in model did on the retrieval bench's lost question.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { addTextFile, vectorsReady } from './helpers.js';
import { normalize, type Embedder } from '../../src-main/platform/ingest/embed/types.js';
import { limit } from '../fixtures/until.js';

/** Texts holding `marker` point one way, every other text (the question too) the other. */
class TopicEmbedder implements Embedder {
  readonly key = 'test:topic-2';
  constructor(private readonly marker: string) {}
  dims(): number {
    return 2;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => normalize(t.toLowerCase().includes(this.marker) ? [0, 1] : [1, 0.2]));
  }
  async close(): Promise<void> {}
}

const QUERY = 'water pump repair invoice';
// The quote (the marker word sets its vector apart); three texts with the same words in other
// orders, ranked by bm25 close to it; fillers with one of the words, so bm25's scale has a bottom.
const QUOTED = 'Filed in the ledger: the water pump repair invoice from March.';
const OTHERS = [
  'Invoice: repair of the pump, then the water meter; a second repair invoice for the pump, water included.',
  'The invoice lists a repair. The pump moves water. Another invoice, another repair, the same pump and water.',
  'Repair the pump before the invoice comes, or water floods the cellar.',
];
const FILLERS = ['A new invoice arrived today.', 'The garden needs water.', 'Call someone about the roof.', 'Bread, milk and eggs.', 'The car is due for service.', 'Tickets for Friday.'];

describe('hybrid search keeps a quoted hit at its bm25 place', () => {
  const p = makePlatform({ env: {} });
  const files: number[] = [];

  beforeAll(async () => {
    p.services.retrieval.useEmbedder(new TopicEmbedder('ledger'));
    for (const [i, text] of [QUOTED, ...OTHERS, ...FILLERS].entries()) files.push(await addTextFile(p, `note-${i}.txt`, text));
    for (const memory of [QUOTED, ...OTHERS, ...FILLERS]) expect((await call(p, 'POST', '/api/memories', { body: { memory } })).status).toBeLessThan(300);
    await vectorsReady(p);
  }, limit(120_000));
  afterAll(() => closePlatform(p));

  it('file passages: the quote stays where bm25 put it', async () => {
    const r = p.services.retrieval;
    const bm25 = (await r.searchPassages(files, QUERY, 10, 'bm25')).map((h) => h.text);
    const hybrid = (await r.searchPassages(files, QUERY, 10)).map((h) => h.text);
    const at = bm25.indexOf(QUOTED);
    expect(at, JSON.stringify(bm25)).toBeGreaterThanOrEqual(0);
    // The case is one where vectors would demote it: a text bm25 ranked below it has the vectors' favour.
    expect(at).toBeLessThan(OTHERS.length);
    expect(hybrid.indexOf(QUOTED), JSON.stringify(hybrid)).toBeLessThanOrEqual(at);
  });

  it('memories: the same rule', async () => {
    const bm25 = p.services.memories.relevant(1, QUERY, 10).map((m) => m.memory);
    const hybrid = (await p.services.retrieval.relevantMemories(1, QUERY, 10)).map((m) => m.memory);
    const at = bm25.indexOf(QUOTED);
    expect(at, JSON.stringify(bm25)).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(OTHERS.length);
    expect(hybrid.indexOf(QUOTED), JSON.stringify(hybrid)).toBeLessThanOrEqual(at);
  });
});
