import { Worker } from 'node:worker_threads';
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
  const isTs = workerUrl.pathname.endsWith('.ts');
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ExtractionAborted('aborted'));
    // Node 20 does not apply `--import tsx` given in a worker's execArgv: register tsx's
    // loader from inside the worker, then load the TypeScript entry.
    const entry = isTs
      ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl.href)}); });`
      : fileURLToPath(workerUrl);
    const worker = new Worker(entry, {
      eval: isTs,
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
  });
}
