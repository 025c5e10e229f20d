import os from 'node:os';
import type { Readable } from 'node:stream';

/**
 * The main process's side of the platform's reading processes (ingest/spawned.ts): a packaged
 * Electron runs as plain Node for no one (the RunAsNode fuse is off), so neither process can
 * child_process.fork a reader; the main process launches each as a utility process and relays
 * the spawner's protocol over a MessagePort to the platform: spawn/send/kill in, message/error/
 * close out. Readers run at background priority (nice 5); they end with the platform process.
 */

/** The parts of Electron's UtilityProcess a reader needs. */
export interface ReaderProcess {
  readonly pid: number | undefined;
  readonly stderr: Readable | null;
  postMessage(message: unknown): void;
  kill(): boolean;
  on(event: 'spawn', listener: () => void): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
}

/** The parts of MessagePortMain the launcher uses. */
export interface LauncherPort {
  postMessage(message: unknown): void;
  start(): void;
  close(): void;
  on(event: 'message', listener: (e: { data: unknown }) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface LauncherDeps {
  /** utilityProcess.fork(entry, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe'] }). */
  fork(entry: string, execArgv: string[]): ReaderProcess;
  setPriority?: (pid: number, priority: number) => void;
}

const STDERR_TAIL = 4096;
/** A mild nice: beside a busy thread of normal priority a reader still gets about a quarter of the CPU, not none. */
export const READER_NICE = 5;
/** The only flag the platform asks for: a heap ceiling. */
const EXEC_ARG = /^--max-old-space-size=\d+$/;

type FromPlatform = { op: 'spawn'; id: number; entry: string; execArgv: string[] } | { op: 'send'; id: number; msg: unknown } | { op: 'kill'; id: number };

/** Serves one platform process's launcher port; `close()` (the platform died) ends its readers. */
export function serveReaderLauncher(port: LauncherPort, deps: LauncherDeps): { close(): void } {
  const readers = new Map<number, { child: ReaderProcess; stderr: string; killed: boolean }>();
  let open = true;
  const tell = (m: unknown) => {
    if (open) port.postMessage(m);
  };

  function spawn(m: Extract<FromPlatform, { op: 'spawn' }>): void {
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
    child.on('exit', (code) => {
      // The watchdog's mark is on stderr just before it kills the reader: read it to the end first.
      void Promise.race([stderrDone, new Promise((r) => setTimeout(r, 1000).unref())]).then(() => {
        readers.delete(m.id);
        tell({ op: 'close', id: m.id, code: entry.killed ? null : code, signal: entry.killed ? 'SIGKILL' : null, stderr: entry.stderr });
      });
    });
  }

  port.on('message', (e) => {
    const m = e.data as FromPlatform;
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
  port.on('close', close);
  port.start();
  return {
    close() {
      close();
      port.close();
    },
  };
}
