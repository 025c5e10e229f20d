import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bundles = new Map<string, Promise<string>>();

/**
 * The file to start a worker thread or child process from. Built, it is `<name>.js` next to the
 * main bundle (electron.vite.config.ts lists each worker as an input). Run from TypeScript (dev,
 * tests, `npm run serve`), the source is bundled once per process with esbuild (which tsx
 * brings) into a plain .mjs: registering tsx's loader inside each worker costs about a second
 * and could deadlock when several started at once.
 *
 * `source` is the worker's .ts URL relative to the caller; `built` its built file's URL.
 */
export function workerEntry(callerUrl: string, source: string, built: string): Promise<string> {
  if (!callerUrl.endsWith('.ts')) return Promise.resolve(fileURLToPath(new URL(built, callerUrl)));
  const src = fileURLToPath(new URL(source, callerUrl));
  let entry = bundles.get(src);
  if (!entry) {
    entry = (async () => {
      const esbuild = await import('esbuild');
      // Inside the project's node_modules, so the bundle's external imports resolve as the sources' do.
      const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../node_modules/.cache/agent-desk');
      fs.mkdirSync(dir, { recursive: true });
      const out = path.join(dir, `${path.basename(src, '.ts')}-${process.pid}.mjs`);
      await esbuild.build({ entryPoints: [src], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
      process.once('exit', () => fs.rmSync(out, { force: true }));
      return out;
    })();
    entry.catch(() => bundles.delete(src));
    bundles.set(src, entry);
  }
  return entry;
}
