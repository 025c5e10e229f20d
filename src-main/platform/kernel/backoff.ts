/**
 * The one back-off helper: how long to wait before retry `n` (0 = the first retry) of something
 * that failed or died. A schedule is data, either a list of waits (the last one repeats) or an
 * exponential one (`firstMs`, times `factor` each retry, at most `maxMs`). `jitter` spreads each
 * wait by up to ± that fraction, so that many retries started together do not come back together.
 * Pure (no Node or browser API): the platform, the desktop shell and the renderer share it.
 */
export type BackoffSchedule = { readonly waits: readonly number[]; readonly jitter?: number } | { readonly firstMs: number; readonly maxMs: number; readonly factor?: number; readonly jitter?: number };

export function backoffDelay(schedule: BackoffSchedule, n: number, random: () => number = Math.random): number {
  const k = Math.max(0, Math.floor(n));
  const base = 'waits' in schedule ? (schedule.waits[Math.min(k, schedule.waits.length - 1)] ?? 0) : Math.min(schedule.maxMs, schedule.firstMs * (schedule.factor ?? 2) ** k);
  const jitter = schedule.jitter ?? 0;
  return jitter ? Math.round(base * (1 - jitter + 2 * jitter * random())) : base;
}
