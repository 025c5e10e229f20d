import { startPlatform, checkSqliteBinding, StartupError, type Platform } from '../platform.js';
import { DatabaseFromTheFutureError } from '../db/migrate.js';
import { dataKeyBox, plainBox, type SecretBox } from '../kernel/secrets.js';
import { portLauncher, useReaderLauncher } from '../ingest/spawned.js';
import { servePort } from '../transports/port/server.js';
import { ApiServer } from './api-server.js';
import { findLegacySecrets } from './legacy-secrets-store.js';
import type { MainToPlatform, ParentPort, PlatformToMain, PortMain, StartOptions } from './protocol.js';

export interface Host {
  platform(): Platform | null;
  api(): ApiServer | null;
  /** Finishes running work, closes the database, then exits. */
  stop(): Promise<void>;
}

/**
 * The platform process of the desktop app (ARCHITECTURE Principle 3): started by the Electron
 * main process as a utility process, it runs the whole platform (database, jobs, executions, the
 * localhost API) and serves each renderer's bridge port directly, so no request or stream passes
 * through the main process. The main process starts it, restarts it when it dies, hands it ports,
 * opens secrets an older version sealed with the keychain, and launches its reading processes.
 */
/** How long the platform waits for the main process to open legacy secrets (then starts without them). */
export const ASK_TIMEOUT_MS = 15_000;

export function runPlatformHost(parent: ParentPort, exit: (code: number) => void = (code) => process.exit(code), askTimeoutMs = ASK_TIMEOUT_MS): Host {
  let platform: Platform | null = null;
  let api: ApiServer | null = null;
  let stopping = false;
  const waiting: PortMain[] = [];
  const served = new Set<{ close(): void }>();
  const replies = new Map<number, (value: unknown) => void>();
  let nextId = 1;
  const tell = (m: PlatformToMain) => parent.postMessage(m);
  // A main process that does not answer (busy, or its keychain hanging) must not hold the start
  // forever: past the deadline the answer is null, and secrets it would have opened stay closed.
  const ask = (m: { type: 'open-legacy'; sealed: string[] }) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        replies.delete(id);
        resolve(null);
      }, askTimeoutMs);
      replies.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      tell({ ...m, id });
    });

  const serve = (port: PortMain) => {
    const p = platform!;
    const s = servePort(p, port, () => api?.url ?? 'http://localhost');
    served.add(s);
    port.on('close', () => served.delete(s));
  };

  async function start(o: StartOptions): Promise<void> {
    try {
      // SQLite's addon (N-API: one binary for Node and every Electron), checked before anything opens.
      checkSqliteBinding({ fix: o.bindingFix });
      platform = await startPlatform({ dataDir: o.dataDir, resourcesDir: o.resourcesDir, secrets: await secretBox(o) });
      api = new ApiServer(platform);
      await api.start();
      for (const port of waiting.splice(0)) serve(port);
      tell({ type: 'ready', apiUrl: api.url });
    } catch (err) {
      const e = err instanceof Error ? err : new Error(String(err));
      tell({ type: 'failed', message: e.message, stack: e.stack, startup: e instanceof StartupError || e instanceof DatabaseFromTheFutureError });
    }
  }

  async function secretBox(o: StartOptions): Promise<SecretBox> {
    const legacy = findLegacySecrets(o.dataDir);
    if (!o.dataKey && !legacy.length) return plainBox;
    const answer = legacy.length ? await ask({ type: 'open-legacy', sealed: legacy }) : [];
    const opened = Array.isArray(answer) ? (answer as (string | null)[]) : [];
    const map = new Map<string, string>();
    legacy.forEach((s, i) => {
      if (typeof opened[i] === 'string') map.set(s, opened[i]);
    });
    return dataKeyBox(o.dataKey ? Buffer.from(o.dataKey, 'base64') : null, map);
  }

  async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    for (const s of served) s.close();
    try {
      // Refuse new API connections, let running work finish (platform.close), then drop the rest.
      if (api && platform) await api.stop(() => platform!.close());
      else await platform?.close();
    } catch (err) {
      platform?.log.error({ err }, 'shutdown failed');
    }
    tell({ type: 'stopped' });
    exit(0);
  }

  parent.on('message', (e) => {
    const m = e.data as MainToPlatform;
    switch (m?.type) {
      case 'start':
        return void start(m.options);
      case 'readers': {
        const port = e.ports[0];
        if (port) useReaderLauncher(() => portLauncher(port));
        return;
      }
      case 'bridge': {
        const port = e.ports[0];
        if (!port || stopping) return port?.close();
        if (platform && api) serve(port);
        else waiting.push(port);
        return;
      }
      case 'api-url':
        return tell({ type: 'reply', id: m.id, value: api?.url ?? null });
      case 'reply': {
        const resolve = replies.get(m.id);
        replies.delete(m.id);
        return resolve?.(m.value);
      }
      case 'stop':
        return void stop();
    }
  });
  return { platform: () => platform, api: () => api, stop };
}
