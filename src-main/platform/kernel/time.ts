/**
 * Timestamps are stored as integer microseconds since the epoch (sortable, exact) and
 * formatted per resource as CONTRACT.md "Timestamps" says.
 */
let last = 0;

/** Current time in microseconds; strictly increasing within the process so ordering by time is stable. */
export function nowMicros(): number {
  const t = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  last = t > last ? t : last + 1;
  return last;
}

function isoSeconds(micros: number): string {
  return new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
}

/** Agents, executions, webhooks: `2026-11-21T08:52:01.123456Z`. */
export function isoMicros(micros: number): string {
  return `${isoSeconds(micros)}.${String(((micros % 1_000_000) + 1_000_000) % 1_000_000).padStart(6, '0')}Z`;
}

/** Resources: `2026-11-21T08:52:01Z`. */
export function isoZ(micros: number): string {
  return `${isoSeconds(micros)}Z`;
}

/** Files: `2026-11-21T08:52:01+00:00`. */
export function isoOffset(micros: number): string {
  return `${isoSeconds(micros)}+00:00`;
}

/** Wall-clock time in milliseconds, injectable so that time-driven work (schedules) is tested without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
