/**
 * A GGUF embedding model run in-process by node-llama-cpp (prebuilt CPU binary), on a
 * random-weight tiny llama written by the test: its vectors mean nothing, but they are real
 * model outputs going through the same path as a real embedding GGUF (nomic-embed, bge).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tempDir } from '../api/helpers.js';
import { withFake } from '../execution/helpers.js';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';
import { GgufEmbedder } from '../../src-main/platform/ingest/embed/gguf.js';
import { addTextFile, vectorsReady } from './helpers.js';
import { limit } from '../fixtures/until.js';

describe('GGUF embedder', () => {
  let modelsDir: string;
  beforeAll(() => {
    modelsDir = tempDir('agent-desk-embed-models-');
    writeTinyLlama(`${modelsDir}/tiny-embed.gguf`, { seed: 11, embd: 64 });
  });
  afterAll(() => fs.rmSync(modelsDir, { recursive: true, force: true }));

  it('gives one unit vector of the model width per text, the same for the same text', { timeout: limit(120_000) }, async () => {
    const e = new GgufEmbedder(() => ['/nonexistent-folder', modelsDir], 'tiny-embed.gguf');
    try {
      const [a, b, a2] = await e.embed(['the harbour crane lifts containers', 'a recipe for lemon cake', 'the harbour crane lifts containers']);
      expect(a).toHaveLength(64);
      expect(e.dims()).toBe(64);
      const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
      expect(norm(a)).toBeCloseTo(1, 4);
      expect([...a2]).toEqual([...a]);
      expect([...b]).not.toEqual([...a]);
    } finally {
      await e.close();
    }
  });

  it('names the folders it looked in when the file is missing', async () => {
    const e = new GgufEmbedder(() => [modelsDir], 'absent.gguf');
    await expect(e.embed(['x'])).rejects.toThrow(/No GGUF file named "absent.gguf" in .*agent-desk-embed-models-/);
  });

  it('chosen in settings, embeds the files from the GGUF models folder and answers searches with vectors', { timeout: limit(180_000) }, async () => {
    const env = await withFake({}, { AGENT_DESK_MODELS_DIR: modelsDir });
    try {
      const fileId = await addTextFile(env.p, 'port.txt', Array.from({ length: 6 }, (_, i) => `Section ${i}. The harbour crane number ${i} lifts containers onto ships.`).join('\n\n'));
      const put = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: 'tiny-embed.gguf' } });
      expect(put.status).toBe(200);
      await vectorsReady(env.p);
      const view = await call(env.p, 'GET', '/api/settings/embeddings');
      expect(view.json).toMatchObject({ provider: 'gguf', model: 'tiny-embed.gguf', status: 'ready', vectors_in_use: true, error: null });
      const hits = await env.p.services.retrieval.searchPassages([fileId], 'harbour crane', 3);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => typeof h.scores.vector === 'number')).toBe(true);
    } finally {
      await env.close();
    }
  });
});
