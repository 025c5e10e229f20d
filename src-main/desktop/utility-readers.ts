import { utilityProcess } from 'electron';
import { serveReaderLauncher, type LauncherPort, type ReaderProcess } from './reader-launcher.js';

/**
 * The reading processes of the desktop app: the main process serves the platform's launcher port
 * (desktop/reader-launcher.ts) and launches each reader as a utility process from the bundled entry
 * the platform named (worker.js, page-reader.js beside the main bundle), with its heap limit and
 * its stderr kept for the reason it ended.
 */
export function serveReaders(port: LauncherPort): { close(): void } {
  return serveReaderLauncher(port, {
    fork: (entry, execArgv) => utilityProcess.fork(entry, [], { serviceName: 'Agent Desk reader', execArgv, stdio: ['ignore', 'ignore', 'pipe'] }) as unknown as ReaderProcess,
  });
}
