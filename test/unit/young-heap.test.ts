/**
 * The platform process keeps its young generation small: after a burst of short-lived allocations
 * the new space has not grown (it does without keepYoungGenerationSmall()). Each case runs in a
 * process of its own, since V8 flags are process-wide.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

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

describe('young generation', () => {
  it('stays at its starting size through a burst of allocations (V8 grows it to tens of MB otherwise)', () => {
    expect(newSpaceAfterBurst(false)).toBeGreaterThan(16);
    expect(newSpaceAfterBurst(true)).toBeLessThanOrEqual(8);
  });
});
