/**
 * The reader spawner: a small process, started once by the app, that forks the reading
 * processes for it and relays their messages. Forking copies the forking process's page tables,
 * which for a large app takes tens of milliseconds during which its event loop stands still;
 * this process is small, so its forks are quick and stop nothing the user waits on.
 *
 * Reading is background work: this process lowers its own priority at start, and every reader
 * (each of its threads too) inherits it, so the app's own threads get a CPU first when the
 * machine is busy; alone on an idle machine a reader runs at full speed.
 *
 * Protocol (JSON over the IPC channel), parent to spawner: {op: 'spawn', id, entry, execArgv},
 * {op: 'send', id, msg}, {op: 'kill', id}; spawner to parent: {op: 'message', id, msg},
 * {op: 'close', id, code, signal, stderr} (the last 4 KB written to stderr since the last send),
 * {op: 'error', id, message}.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';

interface Spawn {
  op: 'spawn';
  id: number;
  entry: string;
  execArgv: string[];
}
type FromParent = Spawn | { op: 'send'; id: number; msg: unknown } | { op: 'kill'; id: number };

const STDERR_TAIL = 4096;
/** A mild nice: beside a busy thread of normal priority a reader still gets about a quarter of the CPU, not none. */
const READER_NICE = 5;

try {
  os.setPriority(READER_NICE);
} catch {
  // Not permitted here: readers run at normal priority.
}
const children = new Map<number, { child: ChildProcess; stderr: string }>();

const tell = (m: unknown) => {
  if (process.connected) process.send!(m);
};

function spawn(m: Spawn): void {
  let child: ChildProcess;
  try {
    child = fork(m.entry, [], {
      execArgv: m.execArgv,
      // Inside Electron, the executable runs as plain Node for this child too.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
    });
  } catch (err) {
    tell({ op: 'error', id: m.id, message: (err as Error).message });
    tell({ op: 'close', id: m.id, code: null, signal: null, stderr: '' });
    return;
  }
  const entry = { child, stderr: '' };
  children.set(m.id, entry);
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => {
    entry.stderr = (entry.stderr + s).slice(-STDERR_TAIL);
  });
  child.on('message', (msg) => tell({ op: 'message', id: m.id, msg }));
  child.on('error', (err) => tell({ op: 'error', id: m.id, message: err.message }));
  // 'close' (not 'exit'): stderr is complete then.
  child.on('close', (code, signal) => {
    children.delete(m.id);
    tell({ op: 'close', id: m.id, code, signal, stderr: entry.stderr });
  });
}

process.on('message', (m: FromParent) => {
  if (m.op === 'spawn') return spawn(m);
  const entry = children.get(m.id);
  if (!entry) return;
  if (m.op === 'send') {
    entry.stderr = '';
    if (entry.child.connected) entry.child.send(m.msg as object);
  } else if (m.op === 'kill') entry.child.kill('SIGKILL');
});

// The app went away (even by kill -9): its readers go with this process.
process.on('disconnect', () => {
  for (const { child } of children.values()) child.kill('SIGKILL');
  process.exit(0);
});
