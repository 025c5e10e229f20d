/**
 * Hybrid retrieval with the built-in sentence encoder (real model, offline): a question worded
 * without any of its passage's words finds it through vectors (bm25 alone cannot), each method's
 * score is kept, and fused ranking still puts a keyword question's passage first. Memories too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePlatform, closePlatform, call } from '../api/helpers.js';
import { addTextFile, vectorsReady } from './helpers.js';
import { limit } from '../fixtures/until.js';

const DOC = [
  'Tomatoes need six to eight hours of direct sunlight every day. Water them deeply twice a week and stake the stems once they pass knee height so the fruit stays off the soil.',
  'The quarterly invoice must be paid within thirty days of receipt. Late payments accrue interest at two percent per month, and accounts overdue by ninety days are suspended.',
  'To reset the router, hold the small button on its back for ten seconds until the lights blink amber, then wait two minutes while the firmware restarts.',
  'Our office closes on national holidays. Staff who work on such a day receive an extra day of leave, to be taken within the following three months.',
  'Cats sleep between twelve and sixteen hours daily. Kittens and elderly cats sleep even more, and most of it happens during the daytime.',
].join('\n\n');

describe('hybrid retrieval with the built-in embedder', () => {
  const p = makePlatform();
  let fileId = 0;

  beforeAll(async () => {
    fileId = await addTextFile(p, 'handbook.txt', DOC);
    await vectorsReady(p);
  }, limit(120_000));
  afterAll(() => closePlatform(p));

  it('embeds every passage of a processed file in the background (512 dims, sqlite-vec loaded)', () => {
    const v = p.services.retrieval.view();
    expect(v).toMatchObject({ provider: 'builtin', model: 'use-lite-512', status: 'ready', vectors_in_use: true, progress: 1 });
    expect(v.embedded).toBe(v.total);
    expect(v.total).toBeGreaterThan(0);
    expect(p.services.retrieval.nativeVectors).toBe(true);
    const row = p.db.prepare('SELECT length(vec) AS n FROM passage_vectors LIMIT 1').get() as { n: number };
    expect(row.n).toBe(512 * 4);
  });

  it('finds a passage through vectors for a question that shares none of its words', async () => {
    // No word of this question occurs in the router passage (nor any stemmed form bm25 would match).
    const q = 'My wifi box is stuck: how do I reboot it?';
    const bm = await p.services.retrieval.searchPassages([fileId], q, 5, 'bm25');
    expect(bm.some((h) => h.text.includes('router'))).toBe(false);
    const hybrid = await p.services.retrieval.searchPassages([fileId], q, 3);
    const hit = hybrid.find((h) => h.text.includes('reset the router'));
    expect(hit, JSON.stringify(hybrid.map((h) => h.text.slice(0, 40)))).toBeTruthy();
    expect(hybrid[0].text).toContain('reset the router');
    expect(hit!.scores.bm25).toBeNull();
    expect(hit!.scores.vector).toBeGreaterThan(0.2);
    expect(hit!.scores.fused).toBeGreaterThan(0);
  });

  it('keeps both scores for a keyword question and ranks its passage first', async () => {
    const hits = await p.services.retrieval.searchPassages([fileId], 'invoice late payments interest', 3);
    expect(hits[0].text).toContain('quarterly invoice');
    expect(hits[0].scores.bm25).toBeGreaterThan(0);
    expect(hits[0].scores.vector).not.toBeNull();
    expect(hits[0].ordinal).toBeGreaterThanOrEqual(0);
  });

  it('scopes vector hits to the files asked for', async () => {
    const other = await addTextFile(p, 'other.txt', 'Penguins live in the southern hemisphere and cannot fly.');
    await vectorsReady(p);
    const hits = await p.services.retrieval.searchPassages([other], 'My wifi box is stuck: how do I reboot it?', 5);
    expect(hits.every((h) => h.file_id === other)).toBe(true);
  });

  it('fuses memories too: a reworded question finds a memory with no word in common', async () => {
    for (const memory of ['I am allergic to peanuts.', 'My daughter plays the violin.', 'I drive a blue hatchback.']) {
      expect((await call(p, 'POST', '/api/memories', { body: { memory } })).status).toBeLessThan(300);
    }
    await vectorsReady(p);
    const found = await p.services.retrieval.relevantMemories(1, 'Which nuts should be kept away from my food?', 1);
    expect(found.map((m) => m.memory)).toEqual(['I am allergic to peanuts.']);
  });
});
