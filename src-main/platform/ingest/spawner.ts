/**
 * The reader spawner under Node: a small process, started once by the app, that launches the
 * reading processes for it (the one launcher, kernel/reader-launcher.ts, over its IPC channel).
 * Forking copies the forking process's page tables, which for a large app takes tens of
 * milliseconds during which its event loop stands still; this process is small, so its forks are
 * quick and stop nothing the user waits on. In the desktop app the Electron main process is the
 * launcher instead (desktop/reader-launcher.ts), with the same code.
 *
 * One file, two roles, so the app starts it from this real, bundled file (spawner.js beside the
 * main bundle): loaded in a worker thread of the app (ingest/spawned.ts), it forks itself as the
 * spawner process, so not even that one fork stops the app's event loop, and relays between the
 * app and it; loaded as that process, it serves the launcher.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { READER_NICE, serveReaderLauncher, type ReaderProcess } from '../kernel/reader-launcher.js';

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

/**
 * glibc gives each thread that allocates an arena of its own (up to 8 per core), and an arena's
 * freed pages mostly stay: two are plenty for a reader, whose work runs on one thread (the
 * embedder held ~9 MB less after 300 sentences). A value the user set is kept.
 */
const READER_MALLOC_ARENAS = '2';

/** Forks `entry` as plain Node, talking over IPC (inside Electron, a development run, the executable runs as Node for it). */
function forkNode(entry: string, execArgv: string[], stderr: 'pipe' | 'ignore'): ChildProcess {
  const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? READER_MALLOC_ARENAS };
  return fork(entry, [], { execArgv, env, stdio: ['ignore', 'ignore', stderr, 'ipc'], serialization: 'json' });
}

/** The thread's role: fork the spawner process from this same file and relay both ways; its end is the launcher gone. */
function relay(port: NonNullable<typeof parentPort>, self: string): void {
  const child = forkNode(self, [], 'ignore');
  child.on('message', (m) => port.postMessage(m));
  child.on('error', () => {});
  child.on('exit', () => {
    port.postMessage({ op: 'gone' });
    port.close();
  });
  port.on('message', (m) => {
    // The app has no more readers for it: the process ends on its disconnect, and its exit (reaped
    // by this thread's loop, not left a zombie as a terminated thread would leave it) ends this thread.
    if ((m as { op?: string })?.op === 'end') child.disconnect();
    else if (child.connected) child.send(m as object);
  });
}

/** The process's role: serve the launcher; the app going away (even by kill -9) ends it and its readers. */
function serve(): void {
  // Reading is background work: this process lowers its own priority first, so every reader and each
  // of its threads inherits it from birth (a reader's threads start before anyone could renice them).
  try {
    os.setPriority(READER_NICE);
  } catch {
    // Not permitted here: readers run at normal priority.
  }
  const launcher = serveReaderLauncher(
    {
      send: (m) => {
        if (process.connected) process.send!(m);
      },
      onMessage: (listener) => process.on('message', listener),
      onClose: (listener) => process.on('disconnect', listener),
    },
    { fork: (entry, execArgv) => nodeReader(forkNode(entry, execArgv, 'pipe')) },
  );
  process.on('disconnect', () => {
    launcher.close();
    process.exit(0);
  });
}

if (!isMainThread && parentPort) relay(parentPort, (workerData as { self: string }).self);
else if (process.send) serve();
