// Runs the whole test suite several times in a row while CPU hogs run beside it, to prove the
// suite does not depend on timing: `npm run test:under-load -- [--runs 3] [--hogs 2]`.
// Uses `stress-ng --cpu N` when installed (Debian: apt-get install stress-ng), else Node busy loops.
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, hogs: { type: 'string', default: '2' } } });
const runs = Number(values.runs);
const hogs = Number(values.hogs);

const haveStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
const hogProcs = haveStressNg
  ? [spawn('stress-ng', ['--cpu', String(hogs), '--quiet'], { stdio: 'ignore' })]
  : Array.from({ length: hogs }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const stopHogs = () => hogProcs.forEach((p) => p.kill('SIGKILL'));
process.on('exit', stopHogs);
console.log(`test:under-load: ${hogs} CPU hog(s) (${haveStressNg ? 'stress-ng' : 'node busy loops'}), ${runs} run(s) of the suite`);

let failed = 0;
for (let i = 1; i <= runs; i++) {
  const t0 = Date.now();
  const r = spawnSync('npx', ['vitest', 'run'], { stdio: 'inherit' });
  const ok = r.status === 0;
  if (!ok) failed++;
  console.log(`test:under-load: run ${i}/${runs} ${ok ? 'passed' : `FAILED (exit ${r.status})`} in ${Math.round((Date.now() - t0) / 1000)} s`);
}
stopHogs();
console.log(`${runs - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
