/**
 * The reader spawner: a small process, started once by the app under Node, that launches the
 * reading processes for it (the one launcher, kernel/reader-launcher.ts, over its IPC channel).
 * Forking copies the forking process's page tables, which for a large app takes tens of
 * milliseconds during which its event loop stands still; this process is small, so its forks are
 * quick and stop nothing the user waits on. In the desktop app the Electron main process is the
 * launcher instead (desktop/reader-launcher.ts), with the same code.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { READER_NICE, serveReaderLauncher, type ReaderProcess } from '../kernel/reader-launcher.js';

// Reading is background work: this process lowers its own priority first, so every reader and each
// of its threads inherits it from birth (a reader's threads start before anyone could renice them).
try {
  os.setPriority(READER_NICE);
} catch {
  // Not permitted here: readers run at normal priority.
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

const launcher = serveReaderLauncher(
  {
    send: (m) => {
      if (process.connected) process.send!(m);
    },
    onMessage: (listener) => process.on('message', listener),
    onClose: (listener) => process.on('disconnect', listener),
  },
  {
    fork: (entry, execArgv) =>
      nodeReader(
        fork(entry, [], {
          execArgv,
          // Inside Electron (a development run), the executable runs as plain Node for this child too.
          env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          serialization: 'json',
        }),
      ),
  },
);

// The app went away (even by kill -9): its readers go with this process.
process.on('disconnect', () => {
  launcher.close();
  process.exit(0);
});
