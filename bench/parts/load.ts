/**
 * Load (full profile): the real server as a child process on loopback, 200 concurrent SSE
 * executions against the fake provider plus 20 mixed-CRUD workers, for 60 s (two 30 s rounds,
 * so a leak shows as growth from one round to the next). Figures: streams held and completed,
 * errors, lost events, p50/p99 of CRUD latency and of time to first event, the RSS of the server
 * with its child processes at baseline, peak (sampled every 200 ms, split per process, with the
 * server's heap at that moment), after each round and a minute after the last; and what tells a
 * loaded machine from a slow server: the server's CPU share and the time its event loop waited for
 * a CPU, its event-loop delay and server-side CRUD time (measured inside it), and the CRUD p99 of
 * the requests it was not kept waiting during. Each target ends the list as met or not met.
 * The bounded CI profile is test/load. LOAD_SECONDS overrides the total work time; LOAD_TRACE
 * names a file for the whole timeline (JSON lines).
 */
import type { BenchPart, Figures } from '../run.js';
import { runSoak } from '../../test/load/soak.js';

/** The targets: peak and a-minute-after RSS of the server with its processes, and the p99 of short (CRUD) requests. */
const PEAK_MB = 500;
const AFTER_MB = 250;
const CRUD_P99_MS = 250;

/** Fewer requests than this the machine left alone say nothing about a p99. */
const MIN_UNSTARVED = 200;

const verdict = (ok: boolean) => (ok ? 'met' : 'not met');

const part: BenchPart = {
  name: 'load',
  async run(): Promise<Figures> {
    const total = Number(process.env.LOAD_SECONDS ?? 60);
    const f = await runSoak({ durationMs: (total * 1000) / 2, rounds: 2, streams: 200, crudWorkers: 20, tokens: 20, tokenDelayMs: 40, settleMs: 3_000, quietMs: 60_000, traceFile: process.env.LOAD_TRACE || undefined });
    const whole = f.stream_errors === 0 && f.lost_events === 0 && f.stored_mismatches === 0 && f.crud_errors === 0;
    return {
      ...f,
      [`target_peak_le_${PEAK_MB}_mb`]: verdict(f.rss_peak_mb > 0 && f.rss_peak_mb <= PEAK_MB),
      [`target_60s_after_le_${AFTER_MB}_mb`]: verdict(f.rss_60s_after_mb > 0 && f.rss_60s_after_mb <= AFTER_MB),
      [`target_crud_p99_le_${CRUD_P99_MS}_ms`]: verdict(f.crud_p99_ms <= CRUD_P99_MS),
      // The same on the requests the machine did not keep the server waiting during (a loaded machine's run reads this one).
      [`target_crud_unstarved_p99_le_${CRUD_P99_MS}_ms`]: f.crud_unstarved_count < MIN_UNSTARVED ? `not judged (${f.crud_unstarved_count} such requests, fewer than ${MIN_UNSTARVED})` : verdict(f.crud_unstarved_p99_ms <= CRUD_P99_MS),
      target_no_error_no_lost_event: verdict(whole),
    } as Figures;
  },
};

export default part;
