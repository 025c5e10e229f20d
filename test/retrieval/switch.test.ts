/**
 * Choosing another embedder re-embeds in the background while search keeps answering (bm25
 * alone until the new vectors are complete, never an error); the old vectors go once the new
 * ones are ready. The new embedder is a fake OpenAI-compatible /v1/embeddings on loopback whose
 * answers the test holds back, so the in-between state is observed, not guessed by timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { withFake } from '../execution/helpers.js';
import { addTextFile, hashVectors, until, vectorsReady } from './helpers.js';
import { limit } from '../fixtures/until.js';

describe('switching embedder', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let release: () => void = () => {};
  let gate: Promise<void> = Promise.resolve();
  let embedCalls = 0;
  let fileId = 0;

  beforeAll(async () => {
    env = await withFake({
      embed: async (input) => {
        embedCalls++;
        await gate;
        return hashVectors(input);
      },
    });
    fileId = await addTextFile(env.p, 'guide.txt', Array.from({ length: 40 }, (_, i) => `Chapter ${i}. The harbour crane number ${i} lifts containers onto ships.`).join('\n\n'));
    await vectorsReady(env.p);
  }, limit(120_000));
  afterAll(async () => {
    release();
    await env.close();
  });

  const search = () => env.p.services.retrieval.searchPassages([fileId], 'harbour crane containers', 5);

  it('rejects a bad choice with 422 and keeps the current one', async () => {
    for (const body of [{ provider: 'magic' }, { provider: 'openai' }, { provider: 'openai', model: 'm', base_url: 'ftp://x' }, { provider: 'builtin', model: 'other' }, { provider: 'gguf', model: '../x.gguf' }]) {
      const r = await call(env.p, 'PUT', '/api/settings/embeddings', { body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(typeof r.json.message).toBe('string');
    }
    expect((await call(env.p, 'GET', '/api/settings/embeddings')).json).toMatchObject({ provider: 'builtin', status: 'ready', vectors_in_use: true });
  });

  it('keeps search answering (bm25 alone) while re-embedding, then uses the new vectors', async () => {
    const before = await search();
    expect(before.length).toBeGreaterThan(0);
    expect(before[0].scores.vector).not.toBeNull();

    gate = new Promise((r) => (release = r));
    const put = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'openai', model: 'text-embedding-3-small', base_url: env.fake.url, api_key: 'sk-embed' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ provider: 'openai', model: 'text-embedding-3-small', base_url: env.fake.url, has_api_key: true });
    expect(put.json).not.toHaveProperty('api_key');

    // The new embedder has been asked and is held: the switch is in progress.
    await until('the embedder to be called', () => embedCalls > 0);
    const during = (await call(env.p, 'GET', '/api/settings/embeddings')).json;
    expect(during).toMatchObject({ status: 'embedding', vectors_in_use: false });
    expect(during.progress).toBeLessThan(1);
    for (let i = 0; i < 5; i++) {
      const hits = await search();
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.scores.vector === null && h.scores.bm25 !== null)).toBe(true);
    }

    release();
    await vectorsReady(env.p);
    const after = await search();
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((h) => h.scores.vector !== null)).toBe(true);
    const spaces = env.p.db.prepare('SELECT key FROM embedding_spaces').all() as { key: string }[];
    expect(spaces.map((s) => s.key)).toEqual([`openai:${env.fake.url}:text-embedding-3-small`]);
    expect(env.fake.requests.find((r) => r.path === '/v1/embeddings')?.headers.authorization).toBe('Bearer sk-embed');
  });

  it('an embedder that fails shows the error and search still answers', async () => {
    const put = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'ollama', model: 'nomic-embed-text', base_url: `${env.fake.origin}/nowhere/v1` } });
    expect(put.status).toBe(200);
    const v = await until('the error to show', async () => {
      const r = (await call(env.p, 'GET', '/api/settings/embeddings')).json;
      return r.status === 'error' ? r : null;
    });
    expect(v.error).toMatch(/404/);
    expect(v.vectors_in_use).toBe(false);
    expect((await search()).length).toBeGreaterThan(0);
  });
});
