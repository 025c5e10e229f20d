/**
 * The platform process keeps its young generation small: after a burst of short-lived allocations
 * the new space has not grown (it does without keepYoungGenerationSmall()). Each case runs in a
 * process of its own, since V8 flags are process-wide.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { limit } from '../fixtures/until.js';

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

describe('young generation', () => {
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
