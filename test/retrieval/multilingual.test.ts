/**
 * The multilingual embedder offered by the catalog and the optional reranker. No weights can be
 * fetched here, so the GGUF paths run on random-weight tiny models written by the test: their
 * vectors and scores mean nothing, but they go through the same loading code as the real files.
 * The reranker's effect on order is shown with a stand-in scorer (a tiny llama has no ranking
 * head, and node-llama-cpp refuses to rank with it: that refusal is asserted too).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, tempDir } from '../api/helpers.js';
import { withFake } from '../execution/helpers.js';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';
import { limit } from '../fixtures/until.js';
import { addTextFile, HashEmbedder, vectorsReady } from './helpers.js';
import { CURATED_MODELS, pinnedSha256 } from '../../src-main/platform/modules/models/curated.js';
import { GgufReranker, type Reranker } from '../../src-main/platform/modules/retrieval/reranker.js';

const embedding = CURATED_MODELS.find((m) => m.kind === 'embedding');
const reranker = CURATED_MODELS.find((m) => m.kind === 'reranker');

/** Scores a candidate by how many times it holds `word`: a visible, checkable order. */
class WordCounter implements Reranker {
  readonly key = 'test:word-count';
  calls: { query: string; documents: string[] }[] = [];
  constructor(private readonly word: string) {}
  async rank(query: string, documents: string[]): Promise<number[]> {
    this.calls.push({ query, documents });
    return documents.map((d) => d.split(this.word).length - 1);
  }
  async close(): Promise<void> {}
}

describe('multilingual embedder in the catalog', () => {
  it('offers one pinned GGUF embedder (size, licence, SHA-256) and one reranker, with the chat models', () => {
    expect(embedding).toMatchObject({ file: 'bge-m3-Q4_K_M.gguf', license: 'MIT' });
    expect(embedding!.url).toBe('https://huggingface.co/rbehzadan/bge-m3-gguf/resolve/main/bge-m3-Q4_K_M.gguf');
    expect(embedding!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(embedding!.size_bytes).toBeGreaterThan(400_000_000);
    expect(reranker).toMatchObject({ file: 'bge-reranker-v2-m3-q8_0.gguf', license: 'Apache-2.0', sha256: null });
    expect(CURATED_MODELS.filter((m) => !m.kind).length).toBeGreaterThan(3);
  });

  it('a download of the catalog file is checked against the pinned SHA-256; other files against none', () => {
    expect(pinnedSha256(embedding!.url)).toBe(embedding!.sha256);
    expect(pinnedSha256(reranker!.url)).toBeNull();
    expect(pinnedSha256('https://huggingface.co/x/y/resolve/main/other.gguf')).toBeNull();
  });
});

describe('choosing the multilingual GGUF and the reranker', () => {
  let modelsDir: string;
  let env: Awaited<ReturnType<typeof withFake>>;
  let fileIds: number[] = [];

  beforeAll(async () => {
    modelsDir = tempDir('agent-desk-multilingual-');
    // The catalog's file name, so the choice is the one Settings makes after the download.
    writeTinyLlama(`${modelsDir}/${embedding!.file}`, { seed: 5, embd: 64 });
    writeTinyLlama(`${modelsDir}/tiny-rank.gguf`, { seed: 6, embd: 64 });
    env = await withFake({}, { AGENT_DESK_MODELS_DIR: modelsDir });
    env.p.services.retrieval.useEmbedder(new HashEmbedder());
    // One passage per file, so the candidates are three.
    fileIds = [
      await addTextFile(env.p, 'mensal.txt', 'A revisão do guindaste é feita todo mês.'),
      await addTextFile(env.p, 'porto.txt', 'O guindaste do porto levanta contêineres, guindaste forte. Revisão anual do motor.'),
      await addTextFile(env.p, 'cabos.txt', 'Manutenção: revisão, revisão e revisão dos cabos do guindaste.'),
    ];
    await vectorsReady(env.p);
  }, limit(120_000));
  afterAll(async () => {
    await env?.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('switching to the catalog GGUF re-embeds the passages with progress, then answers with its vectors', { timeout: limit(180_000) }, async () => {
    const put = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: embedding!.file } });
    expect(put.status).toBe(200);
    // Right after the switch the new space is empty: re-embedding, bm25 alone answers.
    expect(put.json).toMatchObject({ provider: 'gguf', model: embedding!.file, status: 'embedding', vectors_in_use: false, reranker: null });
    expect((put.json as { embedded: number; total: number }).embedded).toBeLessThan((put.json as { total: number }).total);
    await vectorsReady(env.p);
    const view = await call(env.p, 'GET', '/api/settings/embeddings');
    expect(view.json).toMatchObject({ status: 'ready', progress: 1, vectors_in_use: true });
    const hits = await env.p.services.retrieval.searchPassages(fileIds, 'revisão do guindaste', 3);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => typeof h.scores.vector === 'number')).toBe(true);
    expect(env.p.services.retrieval.current().embedder.dims()).toBe(64);
  });

  it('the search models in the models folder are not offered as chat models; other GGUF files are', async () => {
    const r = await call(env.p, 'GET', '/api/models?fresh=true');
    expect(r.status).toBe(200);
    const files = (r.json as { data?: { id: string; source: string }[] }).data ?? (r.json as { id: string; source: string }[]);
    const local = files.filter((m) => m.source === 'file').map((m) => m.id);
    expect(local).toContain('tiny-rank.gguf');
    expect(local).not.toContain(embedding!.file);
  });

  it('the reranker is off by default, set and cleared by name, and a bad name is a 422', async () => {
    const first = await call(env.p, 'GET', '/api/settings/embeddings');
    expect((first.json as { reranker: unknown }).reranker).toBeNull();
    const bad = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: embedding!.file, reranker: '../rank.gguf' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain('reranker');
    const on = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: embedding!.file, reranker: 'tiny-rank.gguf' } });
    expect(on.status).toBe(200);
    expect((on.json as { reranker: unknown }).reranker).toBe('tiny-rank.gguf');
    // Absent keeps it; null turns it off.
    const kept = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: embedding!.file } });
    expect((kept.json as { reranker: unknown }).reranker).toBe('tiny-rank.gguf');
    const off = await call(env.p, 'PUT', '/api/settings/embeddings', { body: { provider: 'gguf', model: embedding!.file, reranker: null } });
    expect((off.json as { reranker: unknown }).reranker).toBeNull();
  });

  it('a reranker reorders the best hybrid candidates; bm25 or vector alone are not reranked', async () => {
    const before = (await env.p.services.retrieval.searchPassages(fileIds, 'guindaste', 3)).map((h) => h.text);
    const counter = new WordCounter('revisão');
    env.p.services.retrieval.useReranker(counter);
    try {
      const after = await env.p.services.retrieval.searchPassages(fileIds, 'guindaste', 3);
      expect(counter.calls).toHaveLength(1);
      expect(counter.calls[0].query).toBe('guindaste');
      expect(after.map((h) => h.text)).toEqual([...before].sort((a, b) => b.split('revisão').length - a.split('revisão').length));
      expect(after[0].text).toContain('revisão, revisão e revisão');
      expect(after.map((h) => h.text)).not.toEqual(before);
      await env.p.services.retrieval.searchPassages(fileIds, 'guindaste', 3, 'bm25');
      expect(counter.calls).toHaveLength(1);
    } finally {
      env.p.services.retrieval.useReranker(null);
    }
  });

  it('a GGUF without a ranking head is refused by node-llama-cpp with a clear sentence, and search keeps the fused order', { timeout: limit(120_000) }, async () => {
    const r = new GgufReranker(() => [modelsDir], 'tiny-rank.gguf');
    await expect(r.rank('guindaste', ['a', 'b'])).rejects.toThrow(/tiny-rank\.gguf cannot rank: Computing rankings is not supported for this model/);
    const missing = new GgufReranker(() => [modelsDir], 'absent.gguf');
    await expect(missing.rank('q', ['a'])).rejects.toThrow(/No GGUF file named "absent.gguf"/);
    const before = (await env.p.services.retrieval.searchPassages(fileIds, 'guindaste', 3)).map((h) => h.passage_id);
    env.p.services.retrieval.useReranker(r);
    try {
      const after = (await env.p.services.retrieval.searchPassages(fileIds, 'guindaste', 3)).map((h) => h.passage_id);
      expect(after).toEqual(before);
    } finally {
      env.p.services.retrieval.useReranker(null);
    }
  });
});
