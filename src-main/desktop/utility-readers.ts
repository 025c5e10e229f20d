import { utilityProcess } from 'electron';
import { readerEnv } from '../platform/kernel/reader-launcher.js';
import { serveReaderLauncher, type LauncherPort, type ReaderProcess } from './reader-launcher.js';

/**
 * The reading processes of the desktop app: the main process serves the platform's launcher port
 * (desktop/reader-launcher.ts) and launches each reader as a utility process from the bundled entry
 * the platform named (worker.js, page-reader.js beside the main bundle), with its heap limit and
 * its stderr kept for the reason it ended, and the environment every reader gets (kernel/reader-launcher.ts
 * `readerEnv`: few malloc arenas), as the app gives the readers it forks under Node.
 */
export function serveReaders(port: LauncherPort): { close(): void } {
  return serveReaderLauncher(port, {
    fork: (entry, execArgv) => utilityProcess.fork(entry, [], { serviceName: 'Agent Desk reader', execArgv, env: readerEnv(), stdio: ['ignore', 'ignore', 'pipe'] }) as unknown as ReaderProcess,
  });
}
