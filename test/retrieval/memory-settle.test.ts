/**
 * A memory is embedded once its words have stood a while (an injected clock, never wall time): one
 * written and at once edited is embedded once, in its last words; one written and at once deleted
 * is not embedded at all; other memories written meanwhile do not hold back one that has stood.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { HashEmbedder, vectorsReady } from './helpers.js';
import { until } from '../fixtures/until.js';
import { ManualClock } from '../fixtures/manual-clock.js';

const SETTLE_MS = 2_000;

class RecordingEmbedder extends HashEmbedder {
  readonly texts: string[] = [];
  override async embed(texts: string[]): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return super.embed(texts);
  }
}

describe('memories are embedded once their words have stood', () => {
  const embedder = new RecordingEmbedder('test:settle');
  const clock = new ManualClock();
  const p = makePlatform({ env: {} });
  const hasVector = (id: number) => !!p.db.prepare('SELECT 1 FROM memory_vectors WHERE memory_id = ?').get(id);
  const write = async (method: string, url: string, body?: unknown) => {
    const r = await call(p, method, url, body === undefined ? {} : { body });
    expect(r.status, r.text).toBeLessThan(300);
    return r.json;
  };
  const settled = async () => {
    await p.services.retrieval.idle();
    return p.services.retrieval.view().status === 'ready';
  };

  beforeAll(async () => {
    p.services.retrieval.settleMemoriesBy({ now: clock.now, set: clock.setTimeout, clear: clock.clearTimeout }, SETTLE_MS);
    p.services.retrieval.useEmbedder(embedder);
    // Vectors answer searches once the space has one.
    await write('POST', '/api/memories', { memory: 'Bees visit the lavender every morning.' });
    clock.advance(SETTLE_MS);
    await vectorsReady(p);
  });
  afterAll(() => closePlatform(p));

  it('written and edited at once: embedded once, in its last words, after it stood', async () => {
    const id = (await write('POST', '/api/memories', { memory: 'The spare key is under the blue pot.' })).memory.id as number;
    await write('PATCH', `/api/memories/${id}`, { memory: 'The spare key is under the red pot.' });
    await p.services.retrieval.idle();
    expect(p.services.retrieval.view().status).toBe('embedding');
    clock.advance(SETTLE_MS - 1);
    await p.services.retrieval.idle();
    expect(hasVector(id)).toBe(false);
    clock.advance(1);
    await until('the memory to be embedded', settled);
    expect(hasVector(id)).toBe(true);
    expect(embedder.texts.filter((t) => t.includes('spare key'))).toEqual(['The spare key is under the red pot.']);
  });

  it('written and deleted at once: never embedded', async () => {
    const id = (await write('POST', '/api/memories', { memory: 'A note about the gas meter reading.' })).memory.id as number;
    // Whatever the background loop does at once is done before the delete.
    await p.services.retrieval.idle();
    await write('DELETE', `/api/memories/${id}`);
    clock.advance(SETTLE_MS);
    await until('the pass to end', settled);
    expect(embedder.texts.filter((t) => t.includes('gas meter'))).toEqual([]);
  });

  it('memories written after it do not hold back one that has stood', async () => {
    const first = (await write('POST', '/api/memories', { memory: 'Swimming lessons start in May.' })).memory.id as number;
    clock.advance(SETTLE_MS / 2);
    const second = (await write('POST', '/api/memories', { memory: 'The bakery closes at noon on Sundays.' })).memory.id as number;
    clock.advance(SETTLE_MS / 2);
    await until('the first memory to be embedded', async () => (await p.services.retrieval.idle(), hasVector(first)));
    expect(hasVector(second)).toBe(false);
    clock.advance(SETTLE_MS / 2);
    await until('the second memory to be embedded', settled);
    expect(hasVector(second)).toBe(true);
  });
});
