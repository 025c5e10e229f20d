/**
 * The bounded load profile (about 10 s of work in CI): 200 concurrent SSE executions against
 * the fake provider plus mixed CRUD on loopback. Asserts correctness only (no errors, no lost
 * events, stored records whole, RSS back near its level after the first round) and that the
 * figures read per process and inside the server (its probe) are there; the speed figures are
 * printed here and measured properly by `npm run bench -- load`.
 */
import { describe, expect, it } from 'vitest';
import { runSoak } from './soak.js';
import { limit } from '../fixtures/until.js';

describe('soak: 200 SSE streams + mixed CRUD', () => {
  it('holds every stream, loses no event, answers every request, and does not grow', async () => {
    const f = await runSoak({ durationMs: 4_000, rounds: 2, streams: 200, crudWorkers: 8, tokens: 10, tokenDelayMs: 40, settleMs: 1_500 });
    console.info(`[load] ${JSON.stringify(f)}`);
    expect(f.first_errors, String(f.first_errors)).toBeUndefined();
    expect(f.streams_concurrent_max).toBe(200);
    expect(f.streams_completed).toBeGreaterThanOrEqual(200);
    expect(f.stream_errors).toBe(0);
    expect(f.lost_events).toBe(0);
    expect(f.stored_mismatches).toBe(0);
    expect(f.crud_requests).toBeGreaterThan(50);
    expect(f.crud_errors).toBe(0);
    // The figures that tell a loaded machine from a slow server, and where the peak went: read per process and inside the server.
    expect(f.rss_peak_server_mb).toBeGreaterThan(0);
    expect(f.rss_peak_mb).toBeGreaterThanOrEqual(f.rss_peak_server_mb);
    expect(f.heap_total_at_peak_mb).toBeGreaterThan(0);
    expect(f.heap_total_max_mb).toBeGreaterThanOrEqual(f.heap_used_at_peak_mb);
    expect(f.crud_server_p99_ms).toBeGreaterThan(0);
    expect(f.server_event_loop_busy_percent).toBeGreaterThan(0);
    expect(f.server_gc_young_count).toBeGreaterThan(0);
    expect(f.server_cpu_wait_percent).toBeGreaterThanOrEqual(0);
    // A leak grows with work: the second round must not leave the server much bigger than the first.
    expect(f.rss_last_over_first_round).toBeGreaterThan(0);
    // 1.5, not tighter: V8 grows its heap lazily and a loaded 2-core machine reads up to ~1.35 with no leak.
    expect(f.rss_last_over_first_round).toBeLessThan(1.5);
  }, limit(150_000));
});
