import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { readerEnv, serveReaderLauncher, type FromLauncher, type LauncherPort, type ReaderProcess, type ToLauncher } from '../kernel/reader-launcher.js';

/**
 * The platform's end of the one reader path (kernel/reader-launcher.ts): `spawnReader` is the one
 * function every reading process starts through (file readers, the page reader, the built-in
 * embedder), under Node and under Electron alike. It speaks the launcher protocol to a launcher:
 * under Node the app itself, which forks each reader on its main thread (`nodeLauncher`); in the
 * desktop app the Electron main process over a MessagePort (`portLauncher`), which launches each
 * reader as a utility process. `SpawnedChild` is a launched reader, with the parts of a
 * ChildProcess that run.ts uses. A launcher that ends takes its readers with it (each closes as
 * killed); the next reader starts a new one.
 *
 * Forking on the main thread: a fork from the server (120-170 MB) costs its main thread ~2-3 ms
 * of CPU (max 5), once per reader start. A process of its own to fork them (as before) held
 * ~48 MB whenever a reader ran, and a thread of its own would hold ~19 MB, to spare that.
 */

/** What starts and relays to the reading processes. It speaks the launcher protocol; 'exit' means it is gone, with every reader. */
export interface ReaderLauncher {
  postMessage(m: ToLauncher): void;
  on(event: 'message', listener: (m: FromLauncher) => void): unknown;
  on(event: 'exit' | 'error', listener: () => void): unknown;
  /** Whether a reader at work keeps this process running. */
  ref(): void;
  unref(): void;
  /** Ends the launcher and its readers (its 'exit' follows). */
  terminate(): unknown;
}

let launcherFactory: (() => ReaderLauncher) | null = null;

/**
 * Launches readers through `start()` from now on (null: back to this process forking them under
 * Node). The readers of the launcher used so far end with it, so none outlives the switch.
 */
export function useReaderLauncher(start: (() => ReaderLauncher) | null): void {
  launcherFactory = start;
  const old = launch;
  launch = null;
  old?.stop();
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
    const m = e.data as FromLauncher;
    if (m?.op === 'gone') end();
    else if (!gone) events.emit('message', m);
  });
  port.on('close', end);
  port.start();
  return {
    postMessage(m: ToLauncher) {
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

/** A forked Node process as a launched reader. */
function nodeReader(child: ChildProcess): ReaderProcess {
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    postMessage: (m) => {
      if (child.connected) child.send(m as object);
    },
    kill: () => child.kill('SIGKILL'),
    on(event: string, listener: (...args: unknown[]) => void) {
      // 'close' (not 'exit'): stderr is complete then.
      child.on(event === 'exit' ? 'close' : event, listener);
      return this;
    },
  } as ReaderProcess;
}

/** Whether a forked reader keeps this process running: the process, its IPC channel and its stderr pipe each hold the event loop. */
function holdLoop(child: ChildProcess, on: boolean): void {
  const handles: ({ ref(): unknown; unref(): unknown } | null | undefined)[] = [child, child.channel, child.stderr as Socket | null];
  for (const h of handles) {
    if (on) h?.ref();
    else h?.unref();
  }
}

/**
 * Under Node: the app is its own launcher. The one launcher (kernel/reader-launcher.ts) serves
 * this process over an in-process channel and forks each reader as plain Node talking over IPC
 * (inside Electron, a development run, the executable runs as Node for it). Its messages are
 * delivered on a later turn, as over a real channel, so a reader that fails to start closes after
 * its caller has its SpawnedChild. A reader hears this process go away, even by kill -9, as its
 * IPC channel's end, and ends (kernel/reader-launcher.ts readerParent).
 */
function nodeLauncher(): ReaderLauncher {
  const events = new EventEmitter();
  const forked = new Set<ChildProcess>();
  let held = false;
  let gone = false;
  let toLauncher: (m: unknown) => void = () => {};
  let closeLauncher: () => void = () => {};
  serveReaderLauncher(
    {
      send: (m) => void setImmediate(() => !gone && events.emit('message', m)),
      onMessage: (listener) => (toLauncher = listener),
      onClose: (listener) => (closeLauncher = listener),
    },
    {
      fork(entry, execArgv) {
        const child = fork(entry, [], { execArgv, env: { ...readerEnv(), ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
        forked.add(child);
        child.once('close', () => forked.delete(child));
        holdLoop(child, held);
        return nodeReader(child);
      },
    },
  );
  return {
    postMessage(m: ToLauncher) {
      if (!gone) toLauncher(m);
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      events.on(event, listener);
      return this;
    },
    ref() {
      held = true;
      for (const c of forked) holdLoop(c, true);
    },
    unref() {
      held = false;
      for (const c of forked) holdLoop(c, false);
    },
    terminate() {
      // Kills every reader it forked; their closes are not told: the launcher's exit closes them all.
      closeLauncher();
      gone = true;
      events.emit('exit');
    },
  } as ReaderLauncher;
}

export class SpawnedChild extends EventEmitter {
  connected = true;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** The last 4 KB the process wrote to stderr since the last `send`, known once it closed. */
  stderr = '';

  constructor(
    private readonly host: Launch,
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

/** The readers started through one launcher, by id: its messages go to them, its end closes them all. */
class Launch {
  private readonly children = new Map<number, SpawnedChild>();
  private readonly held = new Set<SpawnedChild>();
  private nextId = 1;
  /** The launcher is gone: every reader closes as killed. */
  private readonly end: () => void;

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
    launcher.on('message', (m: FromLauncher) => {
      if (m.op === 'gone') return end();
      const c = this.children.get(m.id);
      if (!c) return;
      if (m.op === 'message') c.emit('message', m.msg);
      // An error nobody listens for (an idle reader's) must not throw here; its close follows.
      else if (m.op === 'error') {
        if (c.listenerCount('error')) c.emit('error', new Error(m.message));
      } else {
        this.children.delete(m.id);
        c.closed(m.code, m.signal, m.stderr);
      }
    });
    this.end = end;
    launcher.on('exit', () => end());
    // A launcher that fails is a launcher gone (above); the event itself must not go unheard.
    launcher.on('error', () => {});
    launcher.unref();
  }

  /** Ends the launcher, and with it every reader it launched. */
  stop(): void {
    void this.launcher.terminate();
    this.end();
  }

  spawn(entry: string, execArgv: string[]): SpawnedChild {
    const c = new SpawnedChild(this, this.nextId++);
    this.children.set(c.id, c);
    c.ref();
    this.post({ op: 'spawn', id: c.id, entry, execArgv });
    return c;
  }

  post(m: ToLauncher): void {
    this.launcher.postMessage(m);
  }

  /** With no reader at work, the launcher's readers do not keep the app running. */
  hold(c: SpawnedChild, on: boolean): void {
    if (on) this.held.add(c);
    else this.held.delete(c);
    if (this.held.size) this.launcher.ref();
    else this.launcher.unref();
  }
}

let launch: Launch | null = null;

/**
 * Starts a reading process from `entry` (a bundled file) through the launcher in use: the one
 * function that starts readers, under Node and Electron. `execArgv` takes only a heap limit.
 */
export async function spawnReader(entry: string, execArgv: string[]): Promise<SpawnedChild> {
  if (!launch) {
    const started: Launch = new Launch((launcherFactory ?? nodeLauncher)(), () => {
      if (launch === started) launch = null;
    });
    launch = started;
  }
  return launch.spawn(entry, execArgv);
}
