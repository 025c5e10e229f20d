import type { Platform } from '../../src-main/platform/platform.js';
import type { Embedder } from '../../src-main/platform/ingest/embed/types.js';
import { normalize } from '../../src-main/platform/ingest/embed/types.js';

/** Stores a text file and waits until its passages are stored (processing is a background job). */
export async function addTextFile(p: Platform, filename: string, text: string): Promise<number> {
  const f = p.services.files.createFromBuffer(1, filename, Buffer.from(text), { userId: 1 });
  const done = await p.services.files.process(1, f.id);
  if (done.status !== 'completed') throw new Error(`processing ${filename} ended ${done.status}`);
  return Number(f.id);
}

import { until } from '../fixtures/until.js';

export { until };

/** Retrieval settled with its vectors answering searches. */
export async function vectorsReady(p: Platform): Promise<void> {
  await until('vectors ready', async () => {
    await p.services.retrieval.idle();
    const v = p.services.retrieval.view();
    if (v.status === 'error') throw new Error(`embedder error: ${v.error}`);
    return v.status === 'ready' && v.vectors_in_use;
  });
}

/**
 * A deterministic bag-of-words embedder for tests that are about plumbing, not meaning: each
 * word hashes to one of `dims` buckets. `gate` holds every call until released.
 */
export function hashVectors(texts: string[], dims = 64): number[][] {
  return texts.map((t) => {
    const v = new Array<number>(dims).fill(0);
    for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
      v[(h >>> 0) % dims] += 1;
    }
    v[0] += 1e-3;
    return v;
  });
}

export class HashEmbedder implements Embedder {
  calls = 0;
  constructor(readonly key = 'test:hash-64') {}
  dims(): number {
    return 64;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    return hashVectors(texts).map((v) => normalize(v));
  }
  async close(): Promise<void> {}
}

/** An embedder whose calls wait until `open()` (closing opens it too): vectors still coming, on demand. */
export class HeldEmbedder extends HashEmbedder {
  private release!: () => void;
  private readonly gate = new Promise<void>((r) => (this.release = r));
  /** Calls that reached the gate. */
  waiting = 0;
  open(): void {
    this.release();
  }
  override async close(): Promise<void> {
    this.release();
  }
  override async embed(texts: string[]): Promise<Float32Array[]> {
    this.waiting++;
    await this.gate;
    return super.embed(texts);
  }
}
