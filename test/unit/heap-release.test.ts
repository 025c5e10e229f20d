/**
 * Once the app is quiet, its main heap gives its spare pages back: V8 otherwise keeps them for
 * minutes (after a load, 46 MB of old generation reserved for 19 MB live), and an ordinary
 * collection shrinks the heap without unmapping them.
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseHeapWhenQuiet } from '../../src-main/platform/kernel/young-heap.js';

/** Memory the heap holds in RAM, MB. */
const heapMb = () => v8.getHeapStatistics().total_physical_size / 2 ** 20;

describe('releaseHeapWhenQuiet', () => {
  it('gives back the pages a burst left behind, in one collection however often it is asked in a turn', async () => {
    // A burst: 1.5 M small objects that live long enough to reach the old generation, then go.
    let burst: { i: number; s: string }[][] | null = [];
    for (let j = 0; j < 30; j++) burst.push(Array.from({ length: 50_000 }, (_, i) => ({ i, s: `item ${j}-${i}` })));
    const before = heapMb();
    expect(burst).toHaveLength(30);
    burst = null;
    expect(before).toBeGreaterThan(60);

    const once = releaseHeapWhenQuiet();
    expect(releaseHeapWhenQuiet()).toBe(once);
    await once;
    expect(heapMb()).toBeLessThan(before / 2);
  });
});
