/**
 * The headless server as a real child process (`serve`), for tests where the process matters:
 * signals, kill -9, another process writing the same database. It runs as `npm run serve` does,
 * from the built bundle (scripts/cli.mjs, which builds out/serve first when a source is newer:
 * the first start of a test run builds it, the others wait for that build and find it fresh).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { limit } from '../fixtures/until.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = 'src-main/platform/cli/main.ts';
/** What `npm run serve` / `npm run keys` run (package.json "scripts"). */
export const BUILT_CLI = 'scripts/cli.mjs';
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** Env for spawned servers: none of the caller's AGENT_DESK_* settings, no renderer build on the shared cores, quiet logs. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_DESK_')));
  return { ...env, AGENT_DESK_NO_UI_BUILD: '1', AGENT_DESK_LOG_LEVEL: 'warn', ...extra };
}

export interface ServerProcess {
  url: string;
  /** The one-time browser login link serve prints after the listening line (when it printed one). */
  loginUrl: string | null;
  child: ChildProcess;
  pid: number;
  output: () => string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (cleanup). */
  kill(): void;
  /** SIGKILL, and wait until the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after `timeoutMs`; resolves with the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
  /** Resident set size of the server process, in bytes (Linux /proc; null elsewhere). */
  rss(): number | null;
  /** CPU time (user + system) the server process has used, in seconds (Linux /proc; null elsewhere). */
  cpuSeconds(): number | null;
}

export interface StartOptions {
  dataDir: string;
  env?: Record<string, string>;
  /**
   * 'node' (default) runs the built bundle as `npm run serve` does, in one node process, so the
   * spawned pid is the server itself (signals and kill -9 reach it, nothing outlives it); 'dev'
   * runs the sources with the tsx loader, as `npm run serve:dev` does (one process too); 'tsx'
   * runs the tsx CLI, as `npx tsx` would.
   */
  runner?: 'tsx' | 'node' | 'dev';
  /** Also wait for the browser login line. */
  login?: boolean;
  /** Safety net for the start (a build of the bundle included), before scaling by TEST_TIME_SCALE (test/fixtures/until.ts). */
  timeoutMs?: number;
  /** Extra node options for the server process (e.g. a module to preload). */
  execArgv?: string[];
  /** The port to listen on (default 0: a free one); a restart on the same port keeps the page's origin. */
  port?: number;
}

/**
 * The one way tests and benches start the headless server: `serve --port 0` on a data dir, resolved
 * once it prints its listening line (and, with `login`, its login link).
 */
export function startServer(opts: StartOptions): Promise<ServerProcess> {
  const args = ['serve', '--host', '127.0.0.1', '--port', String(opts.port ?? 0), '--data-dir', opts.dataDir];
  const env = childEnv({ AGENT_DESK_OLLAMA_AUTODETECT: '0', ...opts.env });
  const execArgv = opts.execArgv ?? [];
  const child =
    opts.runner === 'tsx'
      ? spawn(TSX, [CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
      : opts.runner === 'dev'
        ? spawn(process.execPath, [...execArgv, '--import', 'tsx', CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(process.execPath, [...execArgv, BUILT_CLI, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out = (out + b).slice(-200_000)));
  child.stderr!.on('data', (b) => (out = (out + b).slice(-200_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const kill = () => {
    if (alive()) child.kill('SIGKILL');
  };
  const proc = (file: string) => {
    try {
      return fs.readFileSync(`/proc/${child.pid}/${file}`, 'utf8');
    } catch {
      return null;
    }
  };
  const startLimit = limit(opts.timeoutMs ?? 45_000);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`server did not start in ${Math.round(startLimit / 1000)} s (raise TEST_TIME_SCALE on a slow machine):\n${out}`));
    }, startLimit);
    const onData = () => {
      const m = /^Agent Desk API listening on (http:\/\/\S+)$/m.exec(out);
      const login = /(http:\/\/\S+\/login\?token=\S+)/.exec(out);
      if (!m || (opts.login && !login)) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1],
        loginUrl: login?.[1] ?? null,
        child,
        pid: child.pid!,
        output: () => out,
        exited,
        kill,
        async kill9() {
          kill();
          await exited;
        },
        async stop(ms = 15_000) {
          if (alive()) {
            child.kill('SIGTERM');
            const t = setTimeout(kill, limit(ms));
            await exited;
            clearTimeout(t);
          }
          return child.exitCode;
        },
        rss() {
          const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(proc('status') ?? '')?.[1]);
          return Number.isFinite(kb) && kb > 0 ? kb * 1024 : null;
        },
        cpuSeconds() {
          // Fields 14 and 15 of /proc/PID/stat (after the parenthesised name): utime, stime in clock ticks (100 Hz).
          const stat = proc('stat');
          if (!stat) return null;
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return (Number(fields[11]) + Number(fields[12])) / 100;
        },
      });
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/**
 * Runs `serve|keys ...args` to the end, as `npm run keys` does: one node process running the built
 * bundle. `timeoutMs` is a safety net, scaled by TEST_TIME_SCALE.
 */
export function runCli(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const timeoutMs = limit(opts.timeoutMs ?? 60_000);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_CLI, ...args], { cwd: ROOT, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} did not end in ${Math.round(timeoutMs / 1000)} s (raise TEST_TIME_SCALE on a slow machine):\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
