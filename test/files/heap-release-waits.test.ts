/**
 * The heap's release once a worker goes idle (kernel/young-heap.ts: V8's last-resort collection,
 * several full passes in one turn, 37-49 ms of the main thread in the eventloop bench's PDF phase)
 * waits while the app still works: a file being read, its vectors being made, and then until the
 * work has been over for a while. Counted, not timed: no release may run while the work is under
 * way or just over (the quiet period is set to an hour), and one runs once the quiet period is over
 * (set to zero).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { upload } from './helpers.js';
import { HeldEmbedder } from '../retrieval/helpers.js';
import { until } from '../fixtures/until.js';
import { deferHeapRelease, heapReleases, heapReleaseTiming, releaseHeapWhenQuiet } from '../../src-main/platform/kernel/young-heap.js';

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('the heap is released only once the app is quiet', () => {
  let p: ReturnType<typeof makePlatform> | undefined;
  const defaults = { ...heapReleaseTiming };
  beforeEach(() => Object.assign(heapReleaseTiming, { recheckMs: 10, quietAfterWorkMs: 3_600_000 }));
  afterEach(async () => {
    Object.assign(heapReleaseTiming, defaults);
    if (p) await closePlatform(p);
    p = undefined;
  });
  /** The work is over: the quiet period ends now. */
  const quietNow = () => (heapReleaseTiming.quietAfterWorkMs = 0);

  it('waits while registered work says it is busy, then runs once', async () => {
    let busy = true;
    const stop = deferHeapRelease(() => busy);
    try {
      const before = heapReleases();
      const released = releaseHeapWhenQuiet();
      await turns(5);
      expect(heapReleases()).toBe(before);
      busy = false;
      // Just over is not quiet yet.
      await turns(5);
      expect(heapReleases()).toBe(before);
      quietNow();
      await released;
      expect(heapReleases()).toBe(before + 1);
    } finally {
      stop();
    }
  });

  it('waits while a file is being read', async () => {
    p = makePlatform({ env: {} });
    const up = await upload(p, 'notes.txt', 'Glaciers carve valleys.');
    expect(up.status, up.text).toBe(200);
    // What processing looks like from outside: the file in progress (no job here, so it stays so).
    p.db.prepare("UPDATE files SET status = 'in_progress' WHERE id = ?").run(up.json.id);
    const before = heapReleases();
    const released = releaseHeapWhenQuiet();
    await turns(5);
    expect(heapReleases()).toBe(before);
    p.db.prepare("UPDATE files SET status = 'completed' WHERE id = ?").run(up.json.id);
    quietNow();
    await released;
    expect(heapReleases()).toBe(before + 1);
  });

  it("waits while a processed file's vectors are being made", async () => {
    p = makePlatform({ env: {} });
    const embedder = new HeldEmbedder('test:gated-heap');
    p.services.retrieval.useEmbedder(embedder);
    const up = await upload(p, 'shore.txt', 'Tidal pools hold anemones and small crabs.');
    expect(up.status, up.text).toBe(200);
    const processing = call(p, 'POST', `/api/files/${up.json.id}/process`);
    // Read, and the embedder holding its batch: the vectors are being made.
    const plat = p;
    await until('the embedder was asked', () => embedder.waiting > 0 && (plat.db.prepare('SELECT status FROM files WHERE id = ?').get(up.json.id) as { status: string }).status === 'completed');
    const before = heapReleases();
    const released = releaseHeapWhenQuiet();
    await turns(5);
    expect(heapReleases()).toBe(before);
    embedder.open();
    expect((await processing).json).toMatchObject({ status: 'completed' });
    quietNow();
    await released;
    expect(heapReleases()).toBe(before + 1);
  });
});
