import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './build';

export interface ServeProcess {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  /** The one-time login link printed by serve. */
  loginUrl: string;
  dataDir: string;
  output(): string;
  /** Stops serve and removes its data dir (`keepData`: leaves it, to start serve on it again). */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** Starts the API the way `npm run serve` does, on a free port and a fresh data dir, and waits for its login link. */
export async function startServe(env: Record<string, string>, timeoutMs = 45_000, existingDataDir?: string): Promise<ServeProcess> {
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-data-'));
  const child: ChildProcess = spawn('npx', ['tsx', 'src-main/platform/cli/main.ts', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    // The renderer is built by the test setup; serve must not start a second build.
    env: { ...process.env, ...env, AGENT_DESK_NO_UI_BUILD: '1', AGENT_DESK_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));

  const close = async (opts: { keepData?: boolean } = {}) => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {}
      }, 5000);
      await exited;
      clearTimeout(t);
    }
    if (!opts.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const found = await new Promise<{ url: string; loginUrl: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve printed no login link within ${timeoutMs} ms. Output:\n${out}`)), timeoutMs);
      const check = () => {
        const api = /listening on (http:\/\/\S+)/.exec(out);
        const login = /(http:\/\/\S+\/login\?token=\S+)/.exec(out);
        if (api && login) {
          clearTimeout(timer);
          resolve({ url: api[1], loginUrl: login[1] });
        }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code} before it was ready. Output:\n${out}`));
      });
    });
    return { ...found, dataDir, output: () => out, close };
  } catch (err) {
    await close();
    throw err;
  }
}
