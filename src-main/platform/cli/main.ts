import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPlatform, startPlatform } from '../platform.js';
import { listen } from '../transports/http/server.js';
import { DEFAULT_USER_ID } from '../kernel/context.js';
import { DatabaseFromTheFutureError } from '../db/migrate.js';
import { StartupError } from '../db/sqlite-binding.js';
import { parseId } from '../kernel/context.js';
import { createBrowserSessions, fileSessionStore } from '../transports/http/session.js';
import { mountStatic, ensureRendererBuilt, type RendererBuild } from '../transports/http/static.js';
import { projectRoot } from './project-root.js';
import { fail, runCommand } from './exit.js';
import { keepYoungGenerationSmall } from '../kernel/young-heap.js';
import { keepOldGenerationNearLive } from '../kernel/old-heap.js';

const USAGE = `Usage:
  npm run serve -- [--host 127.0.0.1] [--port 8787] [--data-dir DIR]
  npm run keys -- create NAME | list | revoke ID   [--data-dir DIR]

Environment: AGENT_DESK_HOST, AGENT_DESK_PORT, AGENT_DESK_DATA_DIR, AGENT_DESK_API_KEY,
AGENT_DESK_ALLOWED_HOSTS, AGENT_DESK_ALLOWED_ORIGINS (see README).`;

async function serveCommand(values: Record<string, string | undefined>): Promise<void> {
  // A server runs for days: its heap's young generation stays small and its old one near what it holds alive (kernel/young-heap.ts, old-heap.ts).
  keepYoungGenerationSmall();
  keepOldGenerationNearLive();
  const host = values.host ?? process.env.AGENT_DESK_HOST ?? '127.0.0.1';
  const portRaw = values.port ?? process.env.AGENT_DESK_PORT ?? '8787';
  if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65535) fail(`Invalid port: ${portRaw}`);
  // Browser mode: a one-time login link becomes a session cookie; the built renderer is served at /.
  let running: Awaited<ReturnType<typeof listen>> | undefined;
  // Kept in the data dir (read at the first request, once the platform below exists): a browser
  // signed in stays so when serve restarts on the same port.
  const browser = createBrowserSessions({
    userId: DEFAULT_USER_ID,
    port: () => running?.port ?? Number(portRaw),
    store: fileSessionStore(() => path.join(platform.config.dataDir, 'browser-sessions.json')),
  });
  const platform = await startPlatform({ dataDir: values['data-dir'], app: { resolvers: [browser.resolver] } });
  browser.mount(platform.app);
  let ui: RendererBuild | undefined;
  // Found from here rather than from static.ts's own place, which differs in the bundle.
  const root = projectRoot();
  mountStatic(platform.app, { root: path.join(root, 'out', 'renderer'), pending: () => (ui ? ui.pending() : 'The web app is not built. Run `npx vite build -c src-renderer/vite.config.ts`, then reload.') });
  try {
    running = await listen(platform, { host, port: Number(portRaw) });
  } catch (err) {
    await platform.close();
    fail(`Could not listen on ${host}:${portRaw}: ${(err as Error).message}`, 1);
  }
  process.stdout.write(`Agent Desk API listening on ${running.url}\n`);
  process.stdout.write(`Open Agent Desk in your browser: ${browser.loginUrl(running.url)}\n`);
  // Tests that spawn serve must not each start a renderer build on the shared cores.
  if (process.env.AGENT_DESK_NO_UI_BUILD !== '1' && !process.env.VITEST) ui = ensureRendererBuilt({ root, note: (line) => process.stderr.write(`${line}\n`) });
  platform.log.info({ dataDir: platform.config.dataDir }, 'data dir');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write('Forced exit.\n');
      process.exit(130);
    }
    stopping = true;
    platform.log.info({ signal }, 'shutting down');
    // The close is bounded (platform.ts); this is the last guard that the process ends at all.
    setTimeout(() => {
      process.stderr.write('Shutdown did not end in time; exiting.\n');
      process.exit(1);
    }, 30_000).unref();
    ui?.cancel();
    running!
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        process.stderr.write(`Shutdown error: ${(err as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function keysCommand(args: string[], values: Record<string, string | undefined>): Promise<void> {
  const platform = createPlatform({ dataDir: values['data-dir'] });
  const keys = platform.services.keys;
  try {
    const [sub, arg] = args;
    if (sub === 'create') {
      if (!arg) fail('Usage: npm run keys -- create NAME');
      const { key, info } = keys.create(DEFAULT_USER_ID, arg);
      process.stdout.write(`Created key ${info.id} (${info.name}). It is shown only once:\n${key}\n`);
    } else if (sub === 'list') {
      const list = keys.list(DEFAULT_USER_ID);
      if (!list.length) process.stdout.write('No keys yet. Create one: npm run keys -- create NAME\n');
      for (const k of list) process.stdout.write(`${k.id}\t${k.prefix}…\t${k.name}\tcreated ${k.created_at}${k.revoked_at ? `\trevoked ${k.revoked_at}` : ''}\n`);
    } else if (sub === 'revoke') {
      const id = parseId(arg ?? '');
      if (!id) fail('Usage: npm run keys -- revoke ID');
      const k = keys.revoke(DEFAULT_USER_ID, id);
      process.stdout.write(`Revoked key ${k.id} (${k.name}).\n`);
    } else {
      fail(USAGE);
    }
  } finally {
    await platform.close();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) fail(USAGE, values.help ? 0 : 2);
  const v = values as Record<string, string | undefined>;
  if (command === 'serve') return serveCommand(v);
  if (command === 'keys') return keysCommand(rest, v);
  fail(USAGE);
}

runCommand(main, USAGE, [DatabaseFromTheFutureError, StartupError]);
