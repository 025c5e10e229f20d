// The startup bench's desktop driver: runs the *built* desktop main (bench/results/desk-out/main/index.js) in
// plain Node with the tests' fake `electron` (node --import test/desktop/support/register-fake-electron.mjs),
// whose utilityProcess forks the built platform (platform.js) as a real child process, loads the
// built preload as a sandboxed preload runs, and uses its bridge as the page does. The bench reads
// memory from /proc itself; this process only times the start and sends requests when told.
// Lines out: `BENCH READY <json>`, `BENCH DONE <json>`, `BENCH QUIT <json>`. Lines in: `requests N`, `quit`.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import electron, { app, state, utilityProcess } from 'electron';
import { mixedRequests } from './helpers/request-mix.mjs';

const root = process.env.FAKE_ELECTRON_APP_PATH;
const say = (tag, data) => process.stdout.write(`\nBENCH ${tag} ${JSON.stringify(data)}\n`);
const until = async (cond, what, ms = 120_000) => {
  for (let waited = 0; !cond(); waited += 10) {
    if (waited > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

// The main process's fork of the platform, and its ready message, timed where they happen.
const times = { fork: null, ready: null };
const fork = utilityProcess.fork;
utilityProcess.fork = (modulePath, args, options) => {
  const child = fork(modulePath, args, options);
  if (modulePath.endsWith('platform.js') && times.fork === null) {
    times.fork = performance.now();
    child.on('message', (m) => {
      if (m?.type === 'ready' && times.ready === null) times.ready = performance.now();
    });
  }
  return child;
};

await import(pathToFileURL(path.join(root, process.env.BUILT_OUT, 'main', 'index.js')).href);
await until(() => state.windows.length > 0 || state.exitCode !== null, 'the window or an exit');
if (state.exitCode !== null) {
  say('FAILED', { exitCode: state.exitCode, errorBoxes: state.errorBoxes });
  process.exit(1);
}

// The sandboxed preload, as Electron runs it (only `electron` to require).
const code = fs.readFileSync(state.windows[0].options.webPreferences.preload, 'utf8');
const module = { exports: {} };
new Function('require', 'module', 'exports', code)(
  (id) => {
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require ${id}`);
  },
  module,
  module.exports,
);
const api = state.exposed.agentDesk;
const req = async (p, method = 'GET', body) => {
  const r = await api.request({ method, path: p, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try {
    json = JSON.parse(r.body);
  } catch {
    // not JSON
  }
  return { status: r.status, json };
};

// The page's first request, sent as the page loads.
const first = await req('/api/agents');
const answered = performance.now();
const platform = state.utilityProcesses.find((p) => p.modulePath.endsWith('platform.js') && !p.exited);
say('READY', { platformPid: platform.pid, forkToReadyMs: times.ready - times.fork, forkToFirstAnswerMs: answered - times.fork, firstStatus: first.status });

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === 'requests') {
    const t0 = performance.now();
    const r = await mixedRequests(req, Number(arg));
    say('DONE', { ...r, seconds: (performance.now() - t0) / 1000 });
  } else if (cmd === 'quit') {
    const quitted = new Promise((r) => app.once('fake-quitted', r));
    app.quit();
    await quitted;
    say('QUIT', { platformExited: !state.utilityProcesses.some((p) => p.modulePath.endsWith('platform.js') && !p.exited) });
    process.exit(0);
  }
}
