/**
 * The platform process keeps its young generation small: after a burst of short-lived allocations
 * the new space has not grown (it does without keepYoungGenerationSmall()). Each case runs in a
 * process of its own, since V8 flags are process-wide.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { limit } from '../fixtures/until.js';
import { BUSY_NEW_SPACE_MB } from '../../src-main/platform/kernel/young-heap.js';

const ROOT = path.resolve(__dirname, '../..');

/** The new space's size (MB) after a burst of allocations, in a fresh process. */
function newSpaceAfterBurst(keepSmall: boolean): number {
  const script = `
    import v8 from 'node:v8';
    import { keepYoungGenerationSmall } from './src-main/platform/kernel/young-heap.ts';
    if (${keepSmall}) keepYoungGenerationSmall();
    let keep = [];
    for (let i = 0; i < 2e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 2e5) keep = []; }
    const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space');
    process.stdout.write(String(s.space_size / 1048576));
  `;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

/**
 * The new space's size (MB) in a fresh process whose young generation grew before
 * keepYoungGenerationSmall() ran (as loading the app's bundle grows it), once it is back at its
 * starting size or after `waitMs`: polled, never a fixed wait.
 */
function newSpaceWhenGrownFirst(waitMs: number): { grown: number; after: number } {
  const script = `
    import v8 from 'node:v8';
    import { keepYoungGenerationSmall, newSpaceMb } from './src-main/platform/kernel/young-heap.ts';
    let keep = [];
    for (let i = 0; i < 2e6; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 2e5) keep = []; }
    keep = null;
    const grown = newSpaceMb();
    keepYoungGenerationSmall();
    const t0 = Date.now();
    const poll = setInterval(() => {
      if (newSpaceMb() > 2 && Date.now() - t0 < ${waitMs}) return;
      clearInterval(poll);
      process.stdout.write(JSON.stringify({ grown, after: newSpaceMb() }));
    }, 50);
  `;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

/**
 * In a fresh process kept small: the new space's size after bursts of allocations (each chunk a
 * turn of its own, as a server's requests are) while an injected load signal says busy, and then
 * once it says quiet: polled until it is back at its starting size, or after `waitMs`.
 */
function newSpaceUnderLoadThenQuiet(waitMs: number): { startMb: number; busyMb: number; quietMb: number } {
  const script = `
    import { growYoungGenerationUnderLoad, keepYoungGenerationSmall, newSpaceMb, releaseHeapNow } from './src-main/platform/kernel/young-heap.ts';
    keepYoungGenerationSmall();
    // Loading the loader grew it: back to the start first.
    releaseHeapNow();
    const startMb = newSpaceMb();
    let busy = 1;
    growYoungGenerationUnderLoad({ busy: () => busy, lookMs: 20 });
    const turn = () => new Promise((r) => setTimeout(r, 25));
    await turn();
    let keep = [];
    let busyMb = 0;
    for (let chunk = 0; chunk < 100; chunk++) {
      for (let i = 0; i < 1e4; i++) { keep.push({ a: i, b: 'x' + i }); if (keep.length > 1e5) keep = []; }
      await turn();
      busyMb = Math.max(busyMb, newSpaceMb());
    }
    keep = null;
    busy = 0;
    const t0 = Date.now();
    let quietMb = newSpaceMb();
    while (quietMb > 2 && Date.now() - t0 < ${waitMs}) {
      await turn();
      quietMb = newSpaceMb();
    }
    process.stdout.write(JSON.stringify({ startMb, busyMb, quietMb }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }));
}

describe('young generation', () => {
  it('grows to BUSY_NEW_SPACE_MB while the event loop is busy, no further, and is given back once it is quiet', () => {
    const { startMb, busyMb, quietMb } = newSpaceUnderLoadThenQuiet(limit(20_000));
    expect(startMb).toBeLessThanOrEqual(2);
    expect(busyMb).toBe(BUSY_NEW_SPACE_MB);
    expect(quietMb).toBeLessThanOrEqual(2);
  }, limit(60_000));

  it('grown before it was kept small (a bundle loading), goes back to its starting size once the start is over', () => {
    const { grown, after } = newSpaceWhenGrownFirst(limit(20_000));
    expect(grown).toBeGreaterThan(8);
    expect(after).toBeLessThanOrEqual(2);
  }, limit(60_000));

  it('stays at its starting size through a burst of allocations (V8 grows it to tens of MB otherwise)', () => {
    expect(newSpaceAfterBurst(false)).toBeGreaterThan(16);
    expect(newSpaceAfterBurst(true)).toBeLessThanOrEqual(8);
  });
});
