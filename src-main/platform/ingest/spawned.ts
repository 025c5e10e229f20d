import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { workerEntry } from '../kernel/worker-entry.js';
import { nextTurn } from '../kernel/turns.js';

/**
 * The app's side of the reader spawner (spawner.ts): the one process the app forks itself, early
 * while it is small, and `SpawnedChild`, a reading process forked by it, with the parts of a
 * ChildProcess that run.ts uses. A spawner that dies takes its readers with it (each closes as
 * killed); the next reader starts a new spawner.
 */

type FromSpawner =
  | { op: 'message'; id: number; msg: unknown }
  | { op: 'error'; id: number; message: string }
  | { op: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null; stderr: string };

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

  send(msg: object): void {
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
    private readonly child: ChildProcess,
    private readonly gone: () => void,
  ) {
    child.on('message', (m: FromSpawner) => {
      const c = this.children.get(m.id);
      if (!c) return;
      if (m.op === 'message') c.emit('message', m.msg);
      else if (m.op === 'error') c.emit('error', new Error(m.message));
      else {
        this.children.delete(m.id);
        c.closed(m.code, m.signal, m.stderr);
      }
    });
    child.on('exit', () => {
      this.gone();
      for (const c of this.children.values()) c.closed(null, 'SIGKILL', '');
      this.children.clear();
    });
    // Errors reach the readers as closes (above); the event itself must not go unheard.
    child.on('error', () => {});
    this.idle();
  }

  spawn(entry: string, execArgv: string[], nice: number): SpawnedChild {
    const c = new SpawnedChild(this, this.nextId++);
    this.children.set(c.id, c);
    c.ref();
    this.post({ op: 'spawn', id: c.id, entry, execArgv, nice });
    return c;
  }

  post(m: object): void {
    if (this.child.connected) this.child.send(m);
  }

  hold(c: SpawnedChild, on: boolean): void {
    if (on) this.held.add(c);
    else this.held.delete(c);
    if (this.held.size) {
      this.child.ref();
      this.child.channel?.ref();
    } else this.idle();
  }

  /** With no reader at work, the spawner does not keep the app running. */
  private idle(): void {
    this.child.unref();
    this.child.channel?.unref();
  }
}

let spawner: Promise<Spawner> | null = null;

function startSpawner(): Promise<Spawner> {
  // Built, spawner.js sits next to the main bundle (electron.vite.config.ts input `spawner`).
  const started = workerEntry(import.meta.url, './spawner.ts', './spawner.js').then(async (entry) => {
    // A turn of its own: the fork is the one long step left in the app's process.
    await nextTurn();
    const child = fork(entry, [], {
      // Never the parent's flags (a test runner's loaders, an inspector port).
      execArgv: [],
      // Inside Electron, the executable runs as plain Node for this child.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'json',
    });
    return new Spawner(child, () => {
      if (spawner === started) spawner = null;
    });
  });
  started.catch(() => {
    if (spawner === started) spawner = null;
  });
  return started;
}

/** Starts the spawner now (at the app's start, while the app is small), if it is not running. */
export function prepareSpawner(): Promise<void> {
  spawner ??= startSpawner();
  return spawner.then(() => undefined);
}

/** Forks a reading process from `entry` through the spawner. */
export async function spawnReader(entry: string, execArgv: string[], nice: number): Promise<SpawnedChild> {
  spawner ??= startSpawner();
  return (await spawner).spawn(entry, execArgv, nice);
}
