import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import { workerEntry } from '../kernel/worker-entry.js';
import { IdleEnd, workerIdleMs, type IdleClock } from '../kernel/idle-end.js';
import type { FromLauncher, LauncherPort, ToLauncher } from '../kernel/reader-launcher.js';

/**
 * The platform's end of the one reader path (kernel/reader-launcher.ts): `spawnReader` is the one
 * function every reading process starts through (file readers, the page reader), under Node and
 * under Electron alike. It speaks the launcher protocol to a launcher, which is, under Node, the
 * reader spawner process (spawner.ts, started from its bundled file in a worker thread that relays
 * its messages, so not even that one fork stops the event loop), and in the desktop app the
 * Electron main process over a MessagePort (`portLauncher`), which launches each reader as a
 * utility process. `SpawnedChild` is a launched reader, with the parts of a ChildProcess that
 * run.ts uses. A launcher that ends takes its readers with it (each closes as killed); the next
 * reader starts a new one.
 */

/** The one launcher protocol (kernel/reader-launcher.ts), spoken by the spawner and by the desktop's main process alike. */
export type FromSpawner = FromLauncher;
export type ToSpawner = ToLauncher;

/** What starts and relays to the reading processes. It speaks the launcher protocol; 'exit' means it is gone, with every reader. */
export interface ReaderLauncher {
  postMessage(m: ToSpawner): void;
  on(event: 'message', listener: (m: FromSpawner) => void): unknown;
  on(event: 'exit' | 'error', listener: () => void): unknown;
  /** Whether a reader at work keeps this process running. */
  ref(): void;
  unref(): void;
  /** Ends the launcher and its readers (its 'exit' follows). */
  terminate(): unknown;
}

let launcherFactory: (() => ReaderLauncher) | null = null;

/**
 * Launches readers through `start()` from now on (null: back to the spawner process under Node).
 * The readers of the launcher used so far end with it, so none outlives the switch.
 */
export function useReaderLauncher(start: (() => ReaderLauncher) | null): void {
  launcherFactory = start;
  const old = spawner;
  spawner = null;
  void old?.then((s) => s.stop(), () => {});
}

/**
 * The launcher of the desktop app's platform process: the protocol over a MessagePort to the
 * Electron main process (a packaged Electron cannot run as plain Node, so this process cannot fork
 * a reader). The port closing (the main process going away) is the launcher gone, with every reader.
 */
export function portLauncher(port: LauncherPort): ReaderLauncher {
  const events = new EventEmitter();
  let gone = false;
  const end = () => {
    if (gone) return;
    gone = true;
    events.emit('exit');
  };
  port.on('message', (e) => {
    const m = e.data as FromSpawner;
    if (m?.op === 'gone') end();
    else if (!gone) events.emit('message', m);
  });
  port.on('close', end);
  port.start();
  return {
    postMessage(m: ToSpawner) {
      if (!gone) port.postMessage(m);
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      events.on(event, listener);
      return this;
    },
    // The parent port keeps this process running anyway; a reader's work needs nothing more.
    ref() {},
    unref() {},
    terminate() {
      // The main process ends this port's readers when it closes.
      port.close();
      end();
    },
  } as ReaderLauncher;
}

/** Under Node: the spawner, started from its bundled file (spawner.ts, its thread role). */
async function spawnerThread(): Promise<ReaderLauncher> {
  // Built, spawner.js sits next to the main bundle (electron.vite.config.ts, scripts/build-serve.mjs).
  const entry = await workerEntry(import.meta.url, './spawner.ts', './spawner.js');
  // A bundled file: no loader of the app's (tsx under `npm run serve:dev`) is wanted in the thread.
  return new Worker(entry, { execArgv: [], workerData: { self: entry }, stdout: false, stderr: false }) as ReaderLauncher;
}

export class SpawnedChild extends EventEmitter {
  connected = true;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** The last 4 KB the process wrote to stderr since the last `send`, known once it closed. */
  stderr = '';

  constructor(
    private readonly host: Spawner,
    readonly id: number,
  ) {
    super();
  }

  send(msg: unknown): void {
    if (this.connected) this.host.post({ op: 'send', id: this.id, msg });
  }

  kill(): void {
    if (this.connected) this.host.post({ op: 'kill', id: this.id });
  }

  /** Whether this reader's work keeps the app running (a busy one does, an idle one does not). */
  ref(): void {
    this.host.hold(this, true);
  }

  unref(): void {
    this.host.hold(this, false);
  }

  closed(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (!this.connected) return;
    this.connected = false;
    this.exitCode = code;
    this.signalCode = signal;
    this.stderr = stderr;
    this.host.hold(this, false);
    this.emit('close', code, signal);
  }
}

class Spawner {
  private readonly children = new Map<number, SpawnedChild>();
  private readonly held = new Set<SpawnedChild>();
  private nextId = 1;
  /** The launcher is gone: every reader closes as killed. */
  private readonly end: () => void;
  /** Ends a launcher of its own (the Node spawner) once no reader has run for the idle period. */
  private readonly quiet: IdleEnd | null;

  constructor(
    private readonly launcher: ReaderLauncher,
    private readonly gone: () => void,
    idle: { ms: number; clock?: IdleClock } | null,
  ) {
    this.quiet = idle && new IdleEnd({ ...idle, canEnd: () => this.children.size === 0, end: () => this.retire() });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.gone();
      for (const c of this.children.values()) c.closed(null, 'SIGKILL', '');
      this.children.clear();
    };
    launcher.on('message', (m: FromSpawner) => {
      if (m.op === 'gone') return end();
      const c = this.children.get(m.id);
      if (!c) return;
      if (m.op === 'message') c.emit('message', m.msg);
      // An error nobody listens for (an idle reader's) must not throw here; its close follows.
      else if (m.op === 'error') {
        if (c.listenerCount('error')) c.emit('error', new Error(m.message));
      }
      else {
        this.children.delete(m.id);
        c.closed(m.code, m.signal, m.stderr);
        this.quiet?.touch();
      }
    });
    this.end = end;
    launcher.on('exit', () => end());
    // A launcher that fails is a spawner gone (above); the event itself must not go unheard.
    launcher.on('error', () => {});
    this.idle();
    this.quiet?.touch();
  }

  /**
   * Lets the Node spawner go when no reader runs: its relay thread ends it and exits once it has
   * reaped it (terminating the thread would leave the process a zombie); the next reader starts another.
   */
  private retire(): void {
    this.quiet?.cancel();
    this.launcher.postMessage({ op: 'end' } as unknown as ToSpawner);
    this.end();
  }

  /** Ends the launcher, and with it every reader it launched. */
  stop(): void {
    this.quiet?.cancel();
    void this.launcher.terminate();
    this.end();
  }

  spawn(entry: string, execArgv: string[]): SpawnedChild {
    this.quiet?.touch();
    const c = new SpawnedChild(this, this.nextId++);
    this.children.set(c.id, c);
    c.ref();
    this.post({ op: 'spawn', id: c.id, entry, execArgv });
    return c;
  }

  post(m: ToSpawner): void {
    this.launcher.postMessage(m);
  }

  hold(c: SpawnedChild, on: boolean): void {
    if (on) this.held.add(c);
    else this.held.delete(c);
    if (this.held.size) this.launcher.ref();
    else this.idle();
  }

  /** With no reader at work, the spawner does not keep the app running. */
  private idle(): void {
    this.launcher.unref();
  }
}

let spawner: Promise<Spawner> | null = null;
/**
 * How long the Node spawner stays with no reader. Its readers (the embedder among them) have idle
 * periods of their own, so a short grace is enough: files read one after another reuse it, and a
 * quiet app is rid of it a few seconds after its last reader (the embedder, 60 s after its last
 * use), not a whole period later. 0 (AGENT_DESK_WORKER_IDLE_S=0) never ends it.
 */
const SPAWNER_GRACE_MS = 5_000;
let spawnerIdle: { ms: number; clock?: IdleClock } = { ms: Math.min(workerIdleMs(), SPAWNER_GRACE_MS) };

/**
 * The idle end of the Node spawner (tests inject a clock); applies from its next start. The spawner
 * process and the thread that relays to it hold ~50 MB that a quiet app does without, so it ends
 * once no reader has run for the grace above and the next reader starts it again. The desktop's
 * launcher is Electron's main process, never ended here.
 */
export function setSpawnerIdle(o: { ms: number; clock?: IdleClock }): void {
  spawnerIdle = o;
}

function startSpawner(): Promise<Spawner> {
  const launch = launcherFactory;
  const started = (launch ? Promise.resolve(launch()) : spawnerThread()).then(
    (l) =>
      new Spawner(
        l,
        () => {
          if (spawner === started) spawner = null;
        },
        launch ? null : spawnerIdle,
      ),
  );
  started.catch(() => {
    if (spawner === started) spawner = null;
  });
  return started;
}

/**
 * Starts a reading process from `entry` (a bundled file) through the launcher in use: the one
 * function that starts readers, under Node and Electron. `execArgv` takes only a heap limit.
 */
export async function spawnReader(entry: string, execArgv: string[]): Promise<SpawnedChild> {
  spawner ??= startSpawner();
  return (await spawner).spawn(entry, execArgv);
}
