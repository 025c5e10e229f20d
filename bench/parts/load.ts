/**
 * Load (full profile): the real server as a child process on loopback, 200 concurrent SSE
 * executions against the fake provider plus 20 mixed-CRUD workers, for 60 s (two 30 s rounds,
 * so a leak shows as growth from one round to the next). Figures: streams held and completed,
 * errors, lost events, p50/p99 of CRUD latency and of time to first event, the server child's
 * RSS at baseline, peak (sampled every 200 ms), after each round and a minute after the last. The bounded CI profile is test/load.
 * LOAD_SECONDS overrides the total work time.
 */
import type { BenchPart, Figures } from '../run.js';
import { runSoak } from '../../test/load/soak.js';

const part: BenchPart = {
  name: 'load',
  async run(): Promise<Figures> {
    const total = Number(process.env.LOAD_SECONDS ?? 60);
    return (await runSoak({ durationMs: (total * 1000) / 2, rounds: 2, streams: 200, crudWorkers: 20, tokens: 20, tokenDelayMs: 40, settleMs: 3_000, quietMs: 60_000 })) as Figures;
  },
};

export default part;
