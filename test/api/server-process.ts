/**
 * The headless server as a real child process (`cli.ts serve`), for tests where the process
 * matters: signals, kill -9, another process writing the same database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const CLI = 'src-main/platform/cli/main.ts';
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** Env for spawned servers: none of the caller's AGENT_DESK_* settings, no renderer build on the shared cores, quiet logs. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AGENT_DESK_')));
  return { ...env, AGENT_DESK_NO_UI_BUILD: '1', AGENT_DESK_LOG_LEVEL: 'warn', ...extra };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (cleanup). */
  kill(): void;
}

/**
 * Starts `serve --port 0`. `runner`: 'tsx' runs the tsx CLI (what `npx tsx` resolves to; tsx relays
 * signals to its child and exits with its code), 'node' runs node with the tsx loader so the
 * spawned pid is the server itself (for kill -9).
 */
export function startServer(opts: { dataDir: string; env?: Record<string, string>; runner?: 'tsx' | 'node'; timeoutMs?: number }): Promise<ServerProcess> {
  const args = ['serve', '--port', '0', '--data-dir', opts.dataDir];
  const child =
    opts.runner === 'node'
      ? spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(TSX, [CLI, ...args], { cwd: ROOT, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`server did not start in time:\n${out}`));
    }, opts.timeoutMs ?? 30_000);
    const onData = () => {
      const m = /^Agent Desk API listening on (http:\/\/\S+)$/m.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({ url: m[1], child, output: () => out, exited, kill });
    };
    child.stdout!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (code ${code}, signal ${signal}):\n${out}`));
    });
  });
}

/** Runs `tsx cli.ts ...args` (or through `npx`, which costs about two seconds more) to the end. */
export function runCli(args: string[], opts: { env?: Record<string, string>; npx?: boolean; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    const [cmd, pre] = opts.npx ? ['npx', ['--no-install', 'tsx']] : [TSX, []];
    const child = spawn(cmd, [...pre, CLI, ...args], { cwd: ROOT, env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cli ${args.join(' ')} timed out:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
