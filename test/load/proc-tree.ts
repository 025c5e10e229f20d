import fs from 'node:fs';

/**
 * Resident memory of a process with all its descendants, in bytes (Linux /proc; null when the
 * process is gone): the server's work runs in child processes too (the built-in embedder, the
 * readers, all forked by the server itself), and what they hold is the server's memory as much as
 * its own heap is.
 */
export function treeRss(root: number): number | null {
  return treeSum(root, (pid) => Number(/VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0));
}

/**
 * Proportional memory of a process with its descendants, in bytes: a page shared by n processes
 * (Node's code, mapped by each of them) counts 1/n in each, so this is what they hold together.
 */
export function treePss(root: number): number | null {
  return treeSum(root, (pid) => Number(/^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0));
}

/** The pids of a process and all its descendants (Linux /proc); empty when the process is gone. */
export function processTree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  if (!parent.has(root)) return [];
  return [...parent.keys()].filter((pid) => {
    for (let p: number | undefined = pid, n = 0; p && n < 64; p = parent.get(p), n++) if (p === root) return true;
    return false;
  });
}

/** Sum of `kbOf` over a process and its descendants, in bytes. */
function treeSum(root: number, kbOf: (pid: number) => number): number | null {
  const pids = processTree(root);
  if (!pids.length) return null;
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += kbOf(pid);
    } catch {
      // gone meanwhile
    }
  }
  return kb * 1024;
}

/** Which of the server's processes a pid is: the server itself, the built-in embedder, or another reader. */
export type ProcessRole = 'server' | 'embedder' | 'other';

function roleOf(pid: number, root: number): ProcessRole {
  if (pid === root) return 'server';
  // The built bundle's entry (scripts/build-serve.mjs): embedder.js.
  const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  return /embedder/.test(cmd) ? 'embedder' : 'other';
}

/** Resident memory of a process and its descendants, in bytes, summed per role (empty when the process is gone). */
export function treeRssByRole(root: number): Partial<Record<ProcessRole, number>> {
  const out: Partial<Record<ProcessRole, number>> = {};
  for (const pid of processTree(root)) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      const role = roleOf(pid, root);
      out[role] = (out[role] ?? 0) + kb * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The scheduler's account of a process's main thread (Linux /proc/PID/schedstat), in ms: the time
 * it ran on a CPU and the time it was ready to run but waited for one (another process had it).
 * For a Node server the main thread is the event loop, so `waitMs` is how long the machine kept it
 * from answering; null when the process is gone.
 */
export function schedTimes(pid: number): { runMs: number; waitMs: number } | null {
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return null;
  }
}
