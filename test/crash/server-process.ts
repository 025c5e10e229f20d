import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Everything the server wrote to stderr (for failure messages). */
  stderr(): string;
  /** SIGKILL, and wait until the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), and wait. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** Resident set size of the server process, in bytes (Linux /proc; null elsewhere). */
  rss(): number | null;
  /** CPU time (user + system) the server process has used, in seconds (Linux /proc; null elsewhere). */
  cpuSeconds(): number | null;
}

/**
 * Starts the real server: `cli.ts serve --port 0 --data-dir DIR`, run as ONE process
 * (`node --import tsx`, not the tsx launcher, which would leave a child alive after kill -9).
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src-main/platform/cli/main.ts'), 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, AGENT_DESK_NO_UI_BUILD: '1', AGENT_DESK_LOG_LEVEL: 'warn', AGENT_DESK_OLLAMA_AUTODETECT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => {
    err = (err + d.toString()).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms; stderr: ${err.slice(-2000)}`)), timeoutMs);
    child.stdout!.on('data', (d) => {
      out += d.toString();
      const m = /Agent Desk API listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening; stderr: ${err.slice(-2000)}`));
    });
  });
  return {
    child,
    pid: child.pid!,
    url,
    stderr: () => err,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop(ms = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), ms);
      const code = await exited;
      clearTimeout(t);
      return code;
    },
    cpuSeconds() {
      try {
        // Fields 14 and 15 of /proc/PID/stat (after the parenthesised name): utime, stime in clock ticks (100 Hz on Linux).
        const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        return null;
      }
    },
    rss() {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
        return Number.isFinite(kb) ? kb * 1024 : null;
      } catch {
        return null;
      }
    },
  };
}

/** A small seeded PRNG (mulberry32): random kill points that a failure can replay. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
