import { Worker } from 'node:worker_threads';
import { EventEmitter } from 'node:events';
import { workerEntry } from '../kernel/worker-entry.js';
import type { FromLauncher, ToLauncher } from '../kernel/reader-launcher.js';

/**
 * The app's side of the reader spawner (spawner.ts), and `SpawnedChild`, a reading process forked
 * by it, with the parts of a ChildProcess that run.ts uses. The spawner itself is forked from a
 * small worker thread that relays its messages, so not even that one fork stops the event loop.
 * A spawner that dies takes its readers with it (each closes as killed); the next reader starts
 * a new one.
 */

/** The one launcher protocol (kernel/reader-launcher.ts), spoken by the spawner and by the desktop's main process alike. */
export type FromSpawner = FromLauncher;
export type ToSpawner = ToLauncher;

/**
 * What starts and relays to the reading processes: by default a worker thread that forks the
 * spawner (below); in the desktop app, the Electron main process, which launches each reader as a
 * utility process (its packaged executable cannot run as plain Node, so nothing here can fork it).
 * It speaks the spawner's protocol; 'exit' means it is gone, with every reader.
 */
export interface ReaderLauncher {
  postMessage(m: ToSpawner): void;
  on(event: 'message', listener: (m: FromSpawner) => void): unknown;
  on(event: 'exit' | 'error', listener: () => void): unknown;
  /** Whether a reader at work keeps this process running. */
  ref(): void;
  unref(): void;
}

let launcherFactory: (() => ReaderLauncher) | null = null;

/** Launches readers through `start()` from now on (null: back to the spawner process). */
export function useReaderLauncher(start: (() => ReaderLauncher) | null): void {
  launcherFactory = start;
  spawner = null;
}

/** The worker thread that forks the spawner and relays between it and the app. */
const LAUNCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const { fork } = require('node:child_process');
const child = fork(workerData.entry, [], {
  execArgv: [],
  env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  serialization: 'json',
});
child.on('message', (m) => parentPort.postMessage(m));
child.on('error', () => {});
child.on('exit', () => { parentPort.postMessage({ op: 'gone' }); parentPort.close(); });
parentPort.on('message', (m) => { if (child.connected) child.send(m); });
`;

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

  constructor(
    private readonly launcher: ReaderLauncher,
    private readonly gone: () => void,
  ) {
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
      }
    });
    launcher.on('exit', end);
    // A launcher that fails is a spawner gone (above); the event itself must not go unheard.
    launcher.on('error', () => {});
    this.idle();
  }

  spawn(entry: string, execArgv: string[]): SpawnedChild {
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

function startSpawner(): Promise<Spawner> {
  // Built, spawner.js sits next to the main bundle (electron.vite.config.ts input `spawner`).
  const launch = launcherFactory ?? ((entry: string) => new Worker(LAUNCHER, { eval: true, workerData: { entry }, stdout: false, stderr: false }) as ReaderLauncher);
  const entry = launcherFactory ? Promise.resolve('') : workerEntry(import.meta.url, './spawner.ts', './spawner.js');
  const started = entry.then(
    (e) =>
      new Spawner(launch(e), () => {
        if (spawner === started) spawner = null;
      }),
  );
  started.catch(() => {
    if (spawner === started) spawner = null;
  });
  return started;
}

/** Forks a reading process from `entry` through the spawner. */
export async function spawnReader(entry: string, execArgv: string[]): Promise<SpawnedChild> {
  spawner ??= startSpawner();
  return (await spawner).spawn(entry, execArgv);
}
