import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src-main/platform/kernel/backoff.js';
import { RestartSupervisor } from '../../src-main/platform/kernel/supervisor.js';
import { linesWhere, sourcesUnder, type Source } from './sources.js';

const BACKOFF_HOME = 'src-main/platform/kernel/backoff.ts';
const SUPERVISOR_HOME = 'src-main/platform/kernel/supervisor.ts';

/** A schedule worked out by hand: a doubling with a variable exponent, or a list indexed up to its last entry. */
const SCHEDULES = [/\b2\s*\*\*\s*[a-zA-Z_(]/, /Math\.pow\(\s*2\s*,\s*[a-zA-Z_(]/, /\[\s*Math\.min\([^\]]*\.length\s*-\s*1\s*\)\s*\]/];
/** A healthy-run reset written by hand: how long the thing ran, compared with a threshold. */
const HEALTHY_RESETS = [/now\(\)\s*-\s*this\.\w*[sS]tarted\w*\s*>/];

export function backoffsElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== BACKOFF_HOME && SCHEDULES.some((re) => re.test(line)));
}

export function supervisorsElsewhere(files: Source[]): string[] {
  return linesWhere(files, (name, line) => name !== SUPERVISOR_HOME && HEALTHY_RESETS.some((re) => re.test(line)));
}

describe('one back-off helper (kernel/backoff.ts) and one restart supervisor (kernel/supervisor.ts)', () => {
  it('finds planted schedules and healthy resets', () => {
    const planted = [
      'export const backoffMs = (failures: number) => Math.min(30_000, 500 * 2 ** Math.max(0, failures - 1));',
      'backoffMs: opts.backoffMs ?? ((n) => 1000 * 2 ** n),',
      'const wait = backoff[Math.min(this.crashes, backoff.length - 1)];',
      'const d = Math.pow(2, attempt) * 100;',
    ].join('\n');
    expect(backoffsElsewhere([{ name: 'src-main/platform/modules/tools/mcp-client.ts', text: planted }])).toHaveLength(4);
    expect(backoffsElsewhere([{ name: BACKOFF_HOME, text: planted }])).toEqual([]);
    // A constant is not a schedule.
    expect(backoffsElsewhere([{ name: 'src-main/x.ts', text: 'const MAX_TIMER_MS = 2 ** 31 - 1;\n' }])).toEqual([]);
    const reset = 'if (Date.now() - this.startedAt > HEALTHY_MS) this.failures = 0;\n';
    expect(supervisorsElsewhere([{ name: 'src-main/desktop/platform-process.ts', text: reset }])).toHaveLength(1);
    expect(supervisorsElsewhere([{ name: SUPERVISOR_HOME, text: reset }])).toEqual([]);
  });

  it('holds for the platform, the desktop shell, the preload and the renderer', () => {
    const files = sourcesUnder('src-main', 'src-preload', 'src-renderer');
    expect(backoffsElsewhere(files)).toEqual([]);
    expect(supervisorsElsewhere(files)).toEqual([]);
  });

  it('waits: a list repeats its last entry; an exponential doubles up to its cap; jitter stays within its bounds', () => {
    const list = { waits: [250, 1000, 2000] };
    expect([0, 1, 2, 3, 9].map((n) => backoffDelay(list, n))).toEqual([250, 1000, 2000, 2000, 2000]);
    const exp = { firstMs: 500, maxMs: 30_000 };
    expect([0, 1, 2, 5, 6, 20].map((n) => backoffDelay(exp, n))).toEqual([500, 1000, 2000, 16_000, 30_000, 30_000]);
    expect(backoffDelay({ waits: [1000], jitter: 0.2 }, 0, () => 0)).toBe(800);
    expect(backoffDelay({ waits: [1000], jitter: 0.2 }, 0, () => 1)).toBe(1200);
    expect(backoffDelay(list, -1)).toBe(250);
  });

  it('restarts: longer waits for failures in a row, a healthy run starts the count again, and it gives up', () => {
    let now = 0;
    const s = new RestartSupervisor({ schedule: { waits: [250, 1000, 2000] }, healthyMs: 60_000, giveUpAfter: 4, now: () => now });
    s.started();
    now += 1_000;
    expect(s.died()).toBe(250);
    s.started();
    now += 1_000;
    expect(s.died()).toBe(1000);
    s.started();
    // Up for more than a minute: healthy, so this death is the first in a row.
    now += 61_000;
    expect(s.died()).toBe(250);
    expect(s.failed()).toBe(1000);
    expect(s.failed()).toBe(2000);
    expect(s.failed()).toBe(2000);
    expect(s.failures).toBe(4);
    s.started();
    now += 10;
    expect(s.died()).toBeNull();
  });
});
