/**
 * The platform process keeps its old generation near what it holds alive: under a churn of
 * objects that outlive a few young collections (as a stream's and a request's objects do under
 * load) the old space stays within a small multiple of the live objects; without
 * keepOldGenerationNearLive() V8 lets it grow to several times that before a full collection.
 * Each case runs in a process of its own, since V8 flags are process-wide.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { limit } from '../fixtures/until.js';

const ROOT = path.resolve(__dirname, '../..');

/** The old space's largest size during the churn, over what stays alive after it (one full collection), in a fresh process. */
function oldSpaceOverLive(nearLive: boolean): { maxOldMb: number; liveMb: number } {
  const script = `
    import v8 from 'node:v8';
    import { keepOldGenerationNearLive } from './src-main/platform/kernel/old-heap.ts';
    if (${nearLive}) keepOldGenerationNearLive();
    const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
    const live = Array.from({ length: 200000 }, (_, i) => ({ i, s: 'live' + i }));
    // A ring of 100,000: each object outlives a few young collections, is promoted, then dropped.
    const ring = Array.from({ length: 100000 }, (_, i) => ({ i, s: 'x' + i, a: [i, i + 1] }));
    // One full collection first (the server has had its own by then): the next limit is set from what is alive.
    globalThis.gc();
    let maxOld = 0;
    for (let i = 0; i < 3e6; i++) {
      ring[i % ring.length] = { i, s: 'x' + i, a: [i, i + 1] };
      if (i % 10000 === 0) maxOld = Math.max(maxOld, oldSpace());
    }
    globalThis.gc();
    const liveMb = v8.getHeapStatistics().used_heap_size / 1048576;
    process.stdout.write(JSON.stringify({ maxOldMb: maxOld / 1048576, liveMb, kept: live.length + ring.length }));
  `;
  // A 1 MB young generation, as the platform keeps it (kernel/young-heap.ts): the ring's objects are promoted, not collected young.
  return JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--max-semi-space-size=1', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

describe('old generation', () => {
  it('stays within about twice what is alive through a churn of promoted objects (V8 lets it grow to about four times that otherwise)', () => {
    const without = oldSpaceOverLive(false);
    const kept = oldSpaceOverLive(true);
    expect(without.maxOldMb / without.liveMb, JSON.stringify(without)).toBeGreaterThan(3);
    expect(kept.maxOldMb / kept.liveMb, JSON.stringify(kept)).toBeLessThan(2.2);
  }, limit(120_000));
});
