import { serveReaderLauncher as serve, type LauncherDeps, type LauncherPort, type ReaderProcess } from '../platform/kernel/reader-launcher.js';

export type { ReaderProcess, LauncherDeps, LauncherPort };

/**
 * The main process as the platform's reader launcher (kernel/reader-launcher.ts, the same code the
 * app runs in itself under Node): a packaged Electron runs as plain Node for no one (the RunAsNode fuse is
 * off), so neither process can child_process.fork a reader; the main process launches each as a
 * utility process (desktop/utility-readers.ts) and serves the launcher protocol over a MessagePort
 * to the platform, whose `spawnReader` (ingest/spawned.ts) starts readers under Node too.
 */

/** Serves one platform process's launcher port; `close()` (the platform died) ends its readers. */
export function serveReaderLauncher(port: LauncherPort, deps: LauncherDeps): { close(): void } {
  const served = serve(
    {
      send: (m) => port.postMessage(m),
      onMessage: (listener) => port.on('message', (e) => listener(e.data)),
      onClose: (listener) => port.on('close', listener),
    },
    deps,
  );
  port.start();
  return {
    close() {
      served.close();
      port.close();
    },
  };
}
