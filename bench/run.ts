/**
 * npm run bench [-- part ...]: runs every bench part in bench/parts (or the named ones), prints
 * each part's figures and writes them to bench/results/latest.json. Figures are ratios against
 * a baseline measured in the same run wherever a baseline exists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Figures = Record<string, number | string | boolean>;
export interface BenchPart {
  name: string;
  run(): Promise<Figures>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(here, 'parts'))
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .filter((f) => !only.length || only.includes(f.replace(/\.ts$/, '')));

const results: Record<string, Figures | { error: string }> = {};
/**
 * A part awaiting a promise that nothing can settle any more (no timer, socket or process left)
 * would end the whole run with exit code 13 and no figures; the loop emptying fails that part
 * instead, and the next part runs.
 */
let stalled: ((err: Error) => void) | null = null;
process.on('beforeExit', () => stalled?.(new Error('the part stopped with its work unfinished: it awaits a promise that nothing left running can settle')));
for (const f of files) {
  const mod = (await import(pathToFileURL(path.join(here, 'parts', f)).href)) as { default: BenchPart };
  const name = mod.default.name;
  process.stdout.write(`\n== ${name}\n`);
  const t0 = Date.now();
  try {
    const figures = await Promise.race([mod.default.run(), new Promise<never>((_, reject) => (stalled = reject))]);
    results[name] = figures;
    for (const [k, v] of Object.entries(figures)) process.stdout.write(`  ${k.padEnd(48)} ${typeof v === 'number' ? +v.toFixed(3) : v}\n`);
  } catch (err) {
    results[name] = { error: (err as Error).stack ?? String(err) };
    process.stdout.write(`  FAILED: ${(err as Error).message}\n`);
  }
  stalled = null;
  process.stdout.write(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'latest.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
process.stdout.write(`\nWrote bench/results/latest.json\n`);
process.exit(Object.values(results).some((r) => 'error' in r) ? 1 : 0);
