import { Worker } from 'node:worker_threads';
import { type Embedder, EmbedderError, normalize } from './types.js';

const workerUrl = new URL('./builtin-worker.mjs', import.meta.url);

interface Reply {
  id: number;
  dims?: number;
  flat?: Float32Array;
  error?: string;
}

/**
 * The built-in embedder: a worker thread holding the sentence encoder (the model takes ~0.5 s
 * to load and ~20 ms of CPU per sentence, which must not block the API's event loop). Requests
 * are answered in order by the one thread; the thread starts on first use and is ended by close().
 */
export class BuiltinEmbedder implements Embedder {
  readonly key = 'builtin:use-lite-512';
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();

  dims(): number {
    return 512;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    // Named: the thread shows as `embedder` in /proc and debuggers (a test checks it starts only when needed).
    const w = new Worker(workerUrl, { name: 'embedder', stdout: false, stderr: false });
    w.unref();
    w.on('message', (m: Reply) => {
      const p = this.waiting.get(m.id);
      if (!p) return;
      this.waiting.delete(m.id);
      if (m.error || !m.flat || !m.dims) return p.reject(new EmbedderError(`The built-in embedder failed: ${m.error ?? 'no vectors'}`, 'embedder_failed'));
      const out: Float32Array[] = [];
      for (let i = 0; i < m.flat.length; i += m.dims) out.push(normalize(m.flat.subarray(i, i + m.dims)));
      p.resolve(out);
    });
    const fail = (err: Error) => {
      this.worker = null;
      for (const p of this.waiting.values()) p.reject(new EmbedderError(`The built-in embedder stopped: ${err.message}`, 'embedder_failed'));
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // A pending request keeps the process alive; an idle thread does not.
      this.thread().ref();
      this.thread().postMessage({ id, texts });
    }).finally(() => {
      if (!this.waiting.size) this.worker?.unref();
    }) as Promise<Float32Array[]>;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
