import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../api/server-process.js';
import { closedPort } from '../../webhooks/receiver.js';
import type { FakeServer } from '../../fixtures/fake-openai.js';

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

/**
 * Starts the API the way `npm run serve` does, on a free port and a fresh data dir, and waits for its
 * login link; `existingDataDir` and `port` start it again where a stopped one ran (its page's origin).
 */
export async function startServe(env: Record<string, string>, timeoutMs = 45_000, existingDataDir?: string, port?: number): Promise<ServeProcess> {
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-data-'));
  try {
    // The renderer is built by the test setup; serve must not start a second build (the spawner's env says so).
    const s = await startServer({ dataDir, env, login: true, timeoutMs, port });
    return {
      url: s.url,
      loginUrl: s.loginUrl!,
      dataDir,
      output: s.output,
      async close(opts: { keepData?: boolean } = {}) {
        await s.stop(5000);
        if (!opts.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (!existingDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** A loopback address with nothing listening: serve's "usual ports" probes find nothing there. */
export async function nothingAt(): Promise<string> {
  return `http://127.0.0.1:${await closedPort()}`;
}

/** serve's env with `fake` as its one provider (and no Ollama looked for on this machine). */
export const fakeProviderEnv = (fake: FakeServer): Record<string, string> => ({ AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' });
