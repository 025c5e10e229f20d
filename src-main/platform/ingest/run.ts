import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExtractionInput, ExtractionResult } from './types.js';

/**
 * Runs one extraction in its own worker thread so the API's event loop stays free while a
 * 100 MB PDF is read. In dev and tests the worker is TypeScript run through tsx; a build
 * ships worker.js next to this file.
 */
const workerUrl = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url);

export interface RunOptions {
  timeoutMs?: number;
  /** Heap ceiling of the worker: a pathological file fails the file, not the app. */
  maxHeapMb?: number;
  signal?: AbortSignal;
}

export class ExtractionAborted extends Error {}

export function runExtraction(input: ExtractionInput, opts: RunOptions = {}): Promise<ExtractionResult> {
  return workerEntry().then(
    (entry) =>
      new Promise((resolve, reject) => {
        if (opts.signal?.aborted) return reject(new ExtractionAborted('aborted'));
        start(entry, input, opts, resolve, reject);
      }),
  );
}

let devEntry: Promise<string> | null = null;

/**
 * The worker's entry file. Built, it is worker.js beside this file. Run from TypeScript (dev,
 * tests), the worker is bundled once per process with esbuild (which tsx brings) into a plain
 * .mjs: registering tsx's loader inside each worker costs ~1 s per file and can deadlock when
 * several workers start at once (seen under load: a worker online, then silent forever).
 */
function workerEntry(): Promise<string> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve(fileURLToPath(workerUrl));
  devEntry ??= (async () => {
    const esbuild = await import('esbuild');
    const src = fileURLToPath(workerUrl);
    // Inside the project's node_modules, so the bundle's external imports resolve as the sources' do.
    const dir = path.resolve(path.dirname(src), '../../../node_modules/.cache/agent-desk');
    fs.mkdirSync(dir, { recursive: true });
    const out = path.join(dir, `ingest-worker-${process.pid}.mjs`);
    await esbuild.build({ entryPoints: [src], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
    process.once('exit', () => fs.rmSync(out, { force: true }));
    return out;
  })();
  devEntry.catch(() => (devEntry = null));
  return devEntry;
}

function start(entry: string, input: ExtractionInput, opts: RunOptions, resolve: (r: ExtractionResult) => void, reject: (e: Error) => void): void {
  const worker = new Worker(entry, {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: opts.maxHeapMb ?? 2048 },
    stdout: false,
    stderr: false,
  });
  let done = false;
  const finish = (fn: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
    fn();
    void worker.terminate();
  };
  const timer = setTimeout(
    () => finish(() => resolve({ ok: false, code: 'timeout', error: `Processing took longer than ${Math.round((opts.timeoutMs ?? 0) / 60000)} minutes and was stopped.` })),
    opts.timeoutMs ?? 30 * 60_000,
  );
  const onAbort = () => finish(() => reject(new ExtractionAborted('aborted')));
  opts.signal?.addEventListener('abort', onAbort);
  worker.on('message', (m: ExtractionResult) => finish(() => resolve(m)));
  worker.on('error', (err: Error & { code?: string }) =>
    finish(() =>
      resolve({
        ok: false,
        code: 'crashed',
        error: err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'The file is too large or complex to process (the reader ran out of memory).' : `The reader stopped unexpectedly: ${err.message}`,
      }),
    ),
  );
  worker.on('exit', (code) => finish(() => resolve({ ok: false, code: 'crashed', error: `The reader stopped unexpectedly (exit code ${code}).` })));
}
