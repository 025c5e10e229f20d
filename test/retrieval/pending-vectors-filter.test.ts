import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { upload } from '../files/helpers.js';
import { HeldEmbedder, until } from './helpers.js';

/**
 * GET /api/files?status= filters by the status the answer shows (CONTRACT.md "Lean start"): a file
 * whose text is read but whose vectors are still coming reads `in_progress` with `vectors: "pending"`,
 * so `?status=in_progress` lists it and `?status=completed` does not, until its vectors are written.
 */
describe('the files status filter agrees with the status each file reads', () => {
  const embedder = new HeldEmbedder('test:held');
  const p = makePlatform({ env: {} });
  let id: number;
  let processing: ReturnType<typeof call>;
  const stored = () => (p.db.prepare('SELECT status FROM files WHERE id = ?').get(id) as { status: string }).status;
  const listed = async (status: string) => {
    const r = await call(p, 'GET', `/api/files?status=${status}&per_page=100`);
    expect(r.status, r.text).toBe(200);
    return r.json.data as { id: number; status: string; vectors?: string }[];
  };

  beforeAll(async () => {
    p.services.retrieval.useEmbedder(embedder);
    const f = await upload(p, 'tides.txt', 'Tidal pools hold anemones and small crabs.\n\nThe lighthouse keeper logs every ship that passes.');
    expect(f.status, f.text).toBe(200);
    id = f.json.id;
    processing = call(p, 'POST', `/api/files/${id}/process`);
    await until('the text is read and the embedder holds its passages', () => embedder.waiting > 0 && stored() === 'completed');
  });
  afterAll(async () => {
    embedder.open();
    await processing;
    await closePlatform(p);
  });

  it('while its vectors are pending: listed under in_progress (as it reads), not under completed', async () => {
    expect((await call(p, 'GET', `/api/files/${id}`)).json).toMatchObject({ status: 'in_progress', vectors: 'pending' });
    expect((await listed('completed')).map((f) => f.id)).not.toContain(id);
    const inProgress = await listed('in_progress');
    expect(inProgress.find((f) => f.id === id)).toMatchObject({ status: 'in_progress', vectors: 'pending' });
    for (const status of ['completed', 'in_progress', 'waiting', 'failed']) {
      for (const f of await listed(status)) expect(f.status, `?status=${status} listed file ${f.id}`).toBe(status);
    }
  });

  it('once its vectors are written: listed under completed, no longer under in_progress', async () => {
    embedder.open();
    const done = await processing;
    expect(done.json.status).toBe('completed');
    expect((await listed('completed')).find((f) => f.id === id)).toMatchObject({ status: 'completed' });
    expect((await listed('in_progress')).map((f) => f.id)).not.toContain(id);
  });
});
