import fs from 'node:fs';
import os from 'node:os';
import type { Readable } from 'node:stream';

/**
 * The one way reading processes are launched, under Node and under Electron, all three ends of it:
 *  - the platform's (ingest/spawned.ts `spawnReader`, the one function every reader starts through)
 *    speaks this protocol to a launcher (spawn/send/kill in; message/error/close out, `gone` when
 *    the launcher itself ends);
 *  - the launcher's (`serveReaderLauncher` below) forks each reader with what its runtime has: the
 *    app itself under Node (ingest/spawned.ts, child_process.fork on its main thread), the Electron
 *    main process in the desktop app (desktop/utility-readers.ts, utilityProcess.fork, since a
 *    packaged Electron runs as plain Node for no one);
 *  - the reader's (`readerParent` below): its messages in and answers out, whichever forked it.
 * Every launch gives a reader the same environment (`readerEnv`), runs it at background priority
 * (nice 5, every thread of it) and ends it with the launcher.
 */
export type ToLauncher = { op: 'spawn'; id: number; entry: string; execArgv: string[] } | { op: 'send'; id: number; msg: unknown } | { op: 'kill'; id: number };

export type FromLauncher =
  | { op: 'message'; id: number; msg: unknown }
  | { op: 'error'; id: number; message: string }
  | { op: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null; stderr: string }
  | { op: 'gone' };

/** A launched reader, whichever runtime forked it. */
export interface ReaderProcess {
  readonly pid: number | undefined;
  readonly stderr: Readable | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  /** `signal`: what ended it, when the runtime says (Node does; a utility process gives only its code). */
  on(event: 'exit', listener: (code: number | null, signal?: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** The parts of Electron's MessagePortMain the launch uses, on the platform's side (ingest/spawned.ts) and the main process's (desktop/reader-launcher.ts); the API over a port (transports/port) uses the same. */
export interface LauncherPort {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

/** Where the platform's requests come from and the answers go (a MessagePort, or the IPC channel to the parent). */
export interface LauncherChannel {
  send(message: FromLauncher): void;
  onMessage(listener: (message: unknown) => void): void;
  onClose(listener: () => void): void;
}

export interface LauncherDeps {
  fork(entry: string, execArgv: string[]): ReaderProcess;
  setPriority?: (pid: number, priority: number) => void;
}

const STDERR_TAIL = 4096;
/** A mild nice: beside a busy thread of normal priority a reader still gets about a quarter of the CPU, not none. */
export const READER_NICE = 5;
/**
 * glibc gives each thread that allocates an arena of its own (up to 8 per core), and an arena's
 * freed pages mostly stay: two are plenty for a reader, whose work runs on one thread (the
 * embedder held ~9 MB less after 300 sentences). A value the user set is kept.
 */
const READER_MALLOC_ARENAS = '2';

/**
 * glibc raises its trim threshold each time a large block it had mmapped is freed (the embedder's
 * model load frees several MB-sized buffers), and from then on freed heap stays resident: a fixed
 * threshold (its 128 KB default) keeps giving it back (the embedder's [heap] 8 -> 5 MB).
 */
const READER_TRIM_THRESHOLD = '131072';

/** The environment of every reader, whichever runtime launches it: the app's, with few malloc arenas that give freed memory back. */
export function readerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? READER_MALLOC_ARENAS, MALLOC_TRIM_THRESHOLD_: env.MALLOC_TRIM_THRESHOLD_ ?? READER_TRIM_THRESHOLD };
}

/** The only flag the platform asks for: a heap ceiling. */
const EXEC_ARG = /^--max-old-space-size=\d+$/;

/** Serves one platform's launcher channel; `close()` (the platform went away) ends its readers. */
export function serveReaderLauncher(channel: LauncherChannel, deps: LauncherDeps): { close(): void } {
  const readers = new Map<number, { child: ReaderProcess; stderr: string; killed: boolean }>();
  let open = true;
  const tell = (m: FromLauncher) => {
    if (open) channel.send(m);
  };

  function spawn(m: Extract<ToLauncher, { op: 'spawn' }>): void {
    let child: ReaderProcess;
    try {
      if (typeof m.entry !== 'string' || !Array.isArray(m.execArgv) || !m.execArgv.every((a) => typeof a === 'string' && EXEC_ARG.test(a))) throw new Error('refused: a reader takes only a heap limit');
      child = deps.fork(m.entry, m.execArgv);
    } catch (err) {
      tell({ op: 'error', id: m.id, message: (err as Error).message });
      tell({ op: 'close', id: m.id, code: null, signal: null, stderr: '' });
      return;
    }
    const entry = { child, stderr: '', killed: false };
    readers.set(m.id, entry);
    child.on('spawn', () => {
      try {
        if (child.pid) (deps.setPriority ?? os.setPriority)(child.pid, READER_NICE);
      } catch {
        // Not permitted here: the reader runs at normal priority.
      }
    });
    const stderrDone = new Promise<void>((resolve) => {
      const s = child.stderr;
      if (!s) return resolve();
      s.setEncoding('utf8');
      s.on('data', (text: string) => {
        entry.stderr = (entry.stderr + text).slice(-STDERR_TAIL);
      });
      s.once('end', resolve);
      s.once('close', resolve);
      s.once('error', () => resolve());
    });
    child.on('message', (msg) => tell({ op: 'message', id: m.id, msg }));
    child.on('error', (err) => tell({ op: 'error', id: m.id, message: err.message }));
    child.on('exit', (code, signal) => {
      // The watchdog's mark is on stderr just before it kills the reader: read it to the end first.
      void Promise.race([stderrDone, new Promise((r) => setTimeout(r, 1000).unref())]).then(() => {
        readers.delete(m.id);
        tell({ op: 'close', id: m.id, code: entry.killed ? null : code, signal: entry.killed ? 'SIGKILL' : (signal ?? null), stderr: entry.stderr });
      });
    });
  }

  channel.onMessage((raw) => {
    const m = raw as ToLauncher;
    if (!m || typeof m !== 'object') return;
    if (m.op === 'spawn') return spawn(m);
    const entry = readers.get(m.id);
    if (!entry) return;
    if (m.op === 'send') {
      entry.stderr = '';
      entry.child.postMessage(m.msg);
    } else if (m.op === 'kill') {
      entry.killed = true;
      entry.child.kill();
    }
  });
  const close = () => {
    if (!open) return;
    open = false;
    for (const r of readers.values()) r.child.kill();
    readers.clear();
  };
  channel.onClose(close);
  return { close };
}

/** The reader's end: the platform's messages in, its answers out. */
export interface ReaderParent {
  onMessage(listener: (message: unknown) => void): void;
  send(message: unknown): void;
}

type UtilityParentPort = { on(e: 'message', l: (ev: { data: unknown }) => void): unknown; postMessage(m: unknown): void };

/**
 * Lowers this reading process to the readers' priority, every thread of it: on Linux a nice value
 * is a thread's, and Node's own threads start before the launcher could renice the new pid, so the
 * reader renices them itself; threads started afterwards inherit it. Elsewhere the call covers the
 * whole process. A reader already nicer (the app ran niced) is left so; never raised back.
 */
export function lowerReaderPriority(proc: Pick<NodeJS.Process, 'pid' | 'platform'> = process): void {
  const ids = (() => {
    if (proc.platform !== 'linux') return [0];
    try {
      return fs.readdirSync(`/proc/${proc.pid}/task`).map(Number);
    } catch {
      return [0];
    }
  })();
  for (const id of ids) {
    try {
      if (os.getPriority(id) < READER_NICE) os.setPriority(id, READER_NICE);
    } catch {
      // Gone meanwhile, or not permitted here: that thread runs at the priority it has.
    }
  }
}

/**
 * The channel to whoever launched this reading process: `process.parentPort` in an Electron
 * utility process (its owner ends it with the app), the IPC channel in a forked Node process (a
 * parent that went away, even by kill -9, ends it: there is nothing left to read for). Opening it
 * lowers the reader to background priority first.
 */
export function readerParent(proc: NodeJS.Process = process): ReaderParent {
  if (proc === process) lowerReaderPriority();
  const port = (proc as NodeJS.Process & { parentPort?: UtilityParentPort }).parentPort;
  if (port) return { onMessage: (listener) => void port.on('message', (e) => listener(e.data)), send: (m) => port.postMessage(m) };
  proc.on('disconnect', () => proc.exit(0));
  return {
    onMessage: (listener) => void proc.on('message', listener),
    send: (m) => {
      if (proc.connected) proc.send!(m);
    },
  };
}
