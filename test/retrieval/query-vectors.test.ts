/**
 * A run's search embeds its query only when that can change the answer: runs asking the same
 * words at once share one embedding, different questions asked meanwhile go in one call, a query whose scope holds no vector (memories or passages not
 * embedded yet) is not embedded at all, and the query vectors kept are the most recently used.
 * Answers stay what they were: the vector search these skip would have found nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { addTextFile, HashEmbedder, vectorsReady } from './helpers.js';
import { until } from '../fixtures/until.js';

/** Records every call's texts; a call with a text containing 'held' waits until released (a busy backlog). */
class RecordingEmbedder extends HashEmbedder {
  readonly texts: string[][] = [];
  private release!: () => void;
  private readonly gate = new Promise<void>((r) => (this.release = r));
  open(): void {
    this.release();
  }
  override async close(): Promise<void> {
    this.release();
  }
  override async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(texts);
    if (texts.some((t) => t.includes('held'))) await this.gate;
    return super.embed(texts);
  }
  /** How many calls embedded exactly this one text (a query). */
  queries(text: string): number {
    return this.texts.filter((t) => t.length === 1 && t[0] === text).length;
  }
}

describe('query vectors of memory and passage search', () => {
  const embedder = new RecordingEmbedder('test:recording');
  const p = makePlatform({ env: {} });
  const retrieval = () => p.services.retrieval;
  let fileId = 0;
  let processing: Promise<unknown> | null = null;

  beforeAll(async () => {
    retrieval().useEmbedder(embedder);
    for (const memory of ['Bees visit the lavender every morning.', 'The violin lesson is on Tuesday.']) {
      expect((await call(p, 'POST', '/api/memories', { body: { memory } })).status).toBeLessThan(300);
    }
    fileId = await addTextFile(p, 'garden.txt', 'Lavender likes sun and dry soil.\n\nBees come for its flowers in June.');
    await vectorsReady(p);
  });
  afterAll(async () => {
    embedder.open();
    await processing;
    await closePlatform(p);
  });

  it('runs asking the same words at once share one embedding of them, and get the same answer', async () => {
    const text = 'when do the bees come to the lavender';
    const answers = await Promise.all(Array.from({ length: 5 }, () => retrieval().relevantMemories(1, text, 5)));
    expect(embedder.queries(text)).toBe(1);
    for (const a of answers) expect(a).toEqual(answers[0]);
    expect(answers[0].map((m) => m.memory)).toContain('Bees visit the lavender every morning.');
    const passages = await Promise.all(Array.from({ length: 4 }, () => retrieval().searchPassages([fileId], 'flowers for bees in summer', 3)));
    expect(embedder.queries('flowers for bees in summer')).toBe(1);
    for (const a of passages) expect(a).toEqual(passages[0]);
  });

  it('different questions asked while one is embedded go together in the next call, with the answers they get alone', async () => {
    const asked = ['which day is the violin lesson', 'what do bees visit', 'when is the lesson', 'what grows in dry soil'];
    const calls = embedder.texts.length;
    const together = await Promise.all(asked.map((q) => retrieval().relevantMemories(1, q, 5)));
    expect(embedder.texts.slice(calls)).toEqual([[asked[0]], asked.slice(1)]);
    // Asked again one by one (their vectors kept), each gets the same answer.
    for (const [i, q] of asked.entries()) expect(await retrieval().relevantMemories(1, q, 5)).toEqual(together[i]);
    expect(embedder.texts.length).toBe(calls + 2);
  });

  it('a query whose memories have no vector yet is not embedded; keyword matches still answer', async () => {
    const made = await call(p, 'POST', '/api/memory-collections', { body: { name: 'Tides' } });
    expect(made.status, made.text).toBeLessThan(300);
    const tides = made.json.collection.id as number;
    const m = await call(p, 'POST', '/api/memories', { body: { memory: 'The held tide tables are in the blue folder.', collection_id: tides } });
    expect(m.status, m.text).toBeLessThan(300);
    // The background embedding has taken it and is held: the collection has a memory and no vector.
    await until('the new memory to be taken for embedding', () => embedder.texts.some((t) => t.some((x) => x.includes('held tide'))));
    const found = await retrieval().relevantMemories(1, 'where are the tide tables', 5, [tides]);
    expect(found.map((f) => f.memory)).toEqual(['The held tide tables are in the blue folder.']);
    expect(embedder.queries('where are the tide tables')).toBe(0);
    // The same question over memories that have vectors is embedded (the check is per scope).
    await retrieval().relevantMemories(1, 'where are the tide tables', 5);
    expect(embedder.queries('where are the tide tables')).toBe(1);
  });

  it('a query over files whose passages have no vector yet is not embedded', async () => {
    const f = p.services.files.createFromBuffer(1, 'held.txt', Buffer.from('The held harbour map shows every mooring.'), { userId: 1 });
    const held = Number(f.id);
    processing = p.services.files.process(1, f.id);
    // Its text is read and stored; its passages wait for the held embedder (the space stays the one in use).
    await until('the file to be read', () => (p.db.prepare('SELECT status FROM files WHERE id = ?').get(held) as { status: string }).status === 'completed');
    const hits = await retrieval().searchPassages([held], 'harbour map moorings', 3);
    expect(hits.map((h) => h.file_id)).toEqual([held]);
    expect(hits[0].scores.vector).toBeNull();
    expect(embedder.queries('harbour map moorings')).toBe(0);
  });

  it('keeps the most recently used query vectors: one asked again is not let go for older ones', async () => {
    const ask = (text: string) => retrieval().relevantMemories(1, text, 3);
    await ask('question zero about bees');
    for (let i = 1; i < 64; i++) await ask(`question ${i} about bees`);
    // Used again, it is now the newest of the 64 kept; the next new question lets the oldest other go.
    await ask('question zero about bees');
    await ask('one more question about bees');
    await ask('question zero about bees');
    expect(embedder.queries('question zero about bees')).toBe(1);
    await ask('question 1 about bees');
    expect(embedder.queries('question 1 about bees')).toBe(2);
  });
});
