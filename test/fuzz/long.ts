/**
 * `npm run fuzz`: the long fuzz run. FUZZ_RUNS (default 1000 per operation) and FUZZ_SEED
 * (default: a fresh seed, printed so that a failure can be replayed) pass through to vitest.
 */
import { spawnSync } from 'node:child_process';

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '1000', FUZZ_SEED: process.env.FUZZ_SEED ?? String(Date.now() % 2 ** 31) };
process.stdout.write(`fuzz: FUZZ_RUNS=${env.FUZZ_RUNS} FUZZ_SEED=${env.FUZZ_SEED} (replay with the same values)\n`);
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/fuzz', ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
