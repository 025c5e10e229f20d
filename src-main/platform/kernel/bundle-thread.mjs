// One esbuild build for kernel/worker-entry.ts (run from TypeScript sources only), in a worker thread
// of its own. buildSync without esbuild's own threads runs its binary to completion and reaps it; a
// service process started from this thread would outlive it and, unreaped, stay a zombie until the
// app exits. Answers null when built, else the error's text.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

process.env.ESBUILD_WORKER_THREADS = '0';
try {
  createRequire(import.meta.url)(workerData.esbuild).buildSync(workerData.options);
  parentPort.postMessage(null);
} catch (err) {
  parentPort.postMessage(String((err && err.message) || err));
}
