import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const bundles = new Map<string, Promise<string>>();

/**
 * The file to start a worker thread or child process from. Built, it is `<name>.js` next to the
 * main bundle (electron.vite.config.ts lists each worker as an input for the desktop app,
 * scripts/build-serve.mjs builds the same names into out/serve for `npm run serve`). Run from
 * TypeScript (dev, in-process tests, `npm run serve:dev`), the source is bundled once per process
 * with esbuild into a plain .mjs: registering tsx's loader inside each worker costs about a second
 * and could deadlock when several started at once. esbuild runs in a worker thread
 * (bundle-thread.mjs): starting its service forks a process, which would stop this thread's event
 * loop for tens of milliseconds.
 *
 * `source` is the worker's .ts URL relative to the caller; `built` its built file's URL.
 */
export function workerEntry(callerUrl: string, source: string, built: string): Promise<string> {
  if (!callerUrl.endsWith('.ts')) return Promise.resolve(fileURLToPath(new URL(built, callerUrl)));
  const src = fileURLToPath(new URL(source, callerUrl));
  let entry = bundles.get(src);
  if (!entry) {
    entry = (async () => {
      // Inside the project's node_modules, so the bundle's external imports resolve as the sources' do.
      const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.cache/agent-desk');
      fs.mkdirSync(dir, { recursive: true });
      const out = path.join(dir, `${path.basename(src, '.ts')}-${process.pid}.mjs`);
      await bundle({ entryPoints: [src], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
      process.once('exit', () => fs.rmSync(out, { force: true }));
      return out;
    })();
    entry.catch(() => bundles.delete(src));
    bundles.set(src, entry);
  }
  return entry;
}

/** One esbuild build, in a worker thread of its own (bundle-thread.mjs, beside this source file). */
function bundle(options: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const thread = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bundle-thread.mjs');
    // Plain JavaScript: no loader of the parent's (tsx under `npm run serve:dev`) is wanted in it.
    const w = new Worker(thread, { execArgv: [], workerData: { esbuild: createRequire(import.meta.url).resolve('esbuild'), options }, stdout: false, stderr: false });
    w.once('message', (error: string | null) => (error === null ? resolve() : reject(new Error(`bundling a worker failed: ${error}`))));
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`the bundling thread exited (${code})`)));
  });
}
