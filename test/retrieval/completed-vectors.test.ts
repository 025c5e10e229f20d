import { afterEach, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { upload } from '../files/helpers.js';
import { HashEmbedder, until } from './helpers.js';
import type { Embedder } from '../../src-main/platform/ingest/embed/types.js';

/** An embedder whose calls wait until released (or fail once told to). */
class GatedEmbedder extends HashEmbedder {
  private release!: () => void;
  private gate = new Promise<void>((r) => (this.release = r));
  failing = false;
  waiting = 0;
  open(): void {
    this.release();
  }
  /** Closing fails a held batch at once, as the real embedders do. */
  override async close(): Promise<void> {
    this.failing = true;
    this.release();
  }
  override async embed(texts: string[]): Promise<Float32Array[]> {
    this.waiting++;
    await this.gate;
    if (this.failing) throw new Error('the embedding server is down');
    return super.embed(texts);
  }
}

/**
 * Lean start without a changed answer (CONTRACT.md "Lean start"): a file reads `completed` only
 * once its passages have vectors from the selected embedder, so a question asked right after it
 * completes is searched by meaning too; while the embedder is busy or being prepared the file reads
 * `in_progress`; if embedding fails it reads `completed` with `vectors: "failed"` and is still
 * found by full text.
 */
describe('completed means the vectors are written', () => {
  let p: ReturnType<typeof makePlatform> | undefined;
  afterEach(async () => {
    if (p) await closePlatform(p);
    p = undefined;
  });

  const start = (embedder: Embedder) => {
    p = makePlatform({ env: {} });
    p.services.retrieval.useEmbedder(embedder);
    return p;
  };
  const text = 'Tidal pools hold anemones and small crabs.\n\nThe lighthouse keeper logs every ship that passes.';

  it('stays in_progress while its passages wait for the embedder, then reads completed with every vector written', async () => {
    const embedder = new GatedEmbedder('test:gated');
    const plat = start(embedder);
    const f = await upload(plat, 'shore.txt', text);
    expect(f.status, f.text).toBe(200);
    const processing = call(plat, 'POST', `/api/files/${f.json.id}/process`);
    // Extraction done, the embedder holding its batch: the file is not completed yet.
    await until('the embedder was asked', () => embedder.waiting > 0 && (plat.db.prepare('SELECT status FROM files WHERE id = ?').get(f.json.id) as { status: string } | undefined)?.status === 'completed');
    // Its text is read: `vectors: "pending"` says so (a message can use it already, by full text).
    expect((await call(plat, 'GET', `/api/files/${f.json.id}`)).json).toMatchObject({ status: 'in_progress', vectors: 'pending' });
    expect((await call(plat, 'GET', '/api/files')).json.data.find((x: { id: number }) => x.id === f.json.id)).toMatchObject({ status: 'in_progress', vectors: 'pending' });
    embedder.open();
    const done = await processing;
    expect(done.status, done.text).toBe(200);
    expect(done.json.status).toBe('completed');
    expect(done.json.vectors).toBeUndefined();
    // Every passage has its vector when completed is said.
    const missing = plat.db
      .prepare('SELECT count(*) AS n FROM file_passages p WHERE p.file_id = ? AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.passage_id = p.id)')
      .get(f.json.id) as { n: number };
    expect(missing.n).toBe(0);
    expect((await call(plat, 'GET', `/api/files/${f.json.id}`)).json).toMatchObject({ status: 'completed' });
  });

  it('embedding that fails: completed with vectors "failed", still found by full text', async () => {
    const embedder = new GatedEmbedder('test:failing');
    embedder.failing = true;
    embedder.open();
    const plat = start(embedder);
    const f = await upload(plat, 'keeper.txt', text);
    const done = await call(plat, 'POST', `/api/files/${f.json.id}/process`);
    expect(done.status, done.text).toBe(200);
    expect(done.json).toMatchObject({ status: 'completed', vectors: 'failed' });
    const found = await plat.services.retrieval.searchPassages([f.json.id], 'lighthouse keeper', 4);
    expect(found.map((x) => x.text).join(' ')).toMatch(/lighthouse keeper/);
  });
});
