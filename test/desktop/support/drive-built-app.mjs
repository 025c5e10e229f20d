// Runs the *built* desktop main (out/main/index.js) in plain Node with the fake `electron`
// (node --import ./register-fake-electron.mjs), whose utilityProcess forks the built platform
// (out/main/platform.js) and its readers (out/main/worker.js) as real child processes; loads the
// built preload the way a sandboxed preload runs (CommonJS, `require` gives only electron), then
// uses the bridge it exposes as the page would, kills the platform process mid-stream and uses
// the bridge again once it is back. Prints one line: RESULT <json>.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import electron, { app, state } from 'electron';

const root = process.env.FAKE_ELECTRON_APP_PATH;
// Electron sets process.resourcesPath; a packaged app finds its catalog and SQLite binding there.
if (process.env.FAKE_RESOURCES_PATH) process.resourcesPath = process.env.FAKE_RESOURCES_PATH;
if (process.env.FAKE_ELECTRON_VERSION) Object.defineProperty(process.versions, 'electron', { value: process.env.FAKE_ELECTRON_VERSION, enumerable: true, configurable: true });

const until = async (cond, what, ms = 60_000) => {
  for (let waited = 0; !cond(); waited += 20) {
    if (waited > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const result = {};
const done = (extra = {}) => {
  process.stdout.write(`RESULT ${JSON.stringify({ ...result, ...extra })}\n`);
  process.exit(0);
};

await import(pathToFileURL(path.join(root, process.env.BUILT_OUT ?? 'out', 'main', 'index.js')).href);
await until(() => state.windows.length > 0 || state.exitCode !== null, 'the window or an exit');
if (state.exitCode !== null) done({ exitCode: state.exitCode, errorBoxes: state.errorBoxes });

const win = state.windows[0];
result.window = { options: win.options, url: win.url, schemes: state.schemes.map((s) => ({ scheme: s.scheme, privileges: s.privileges })) };

// The sandboxed preload, as Electron runs it.
const preloadFile = win.options.webPreferences.preload;
const code = fs.readFileSync(preloadFile, 'utf8');
const sandboxRequire = (id) => {
  if (id === 'electron') return electron;
  throw new Error(`a sandboxed preload cannot require ${id}`);
};
const module = { exports: {} };
new Function('require', 'module', 'exports', code)(sandboxRequire, module, module.exports);
const api = state.exposed.agentDesk;
result.bridgeMethods = Object.keys(api).sort();
const engine = [];
api.onEngine((s) => engine.push(s));
const platformProcess = () => state.utilityProcesses.filter((p) => p.modulePath.endsWith('platform.js') && !p.exited);
result.platformEntry = path.relative(root, state.utilityProcesses[0].modulePath);

const json = async (method, p, body) => {
  const r = await api.request({ method, path: p, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: JSON.parse(r.body) };
};
result.appInfo = await api.appInfo();
result.app = await json('GET', '/api/app');
const collectionId = (await json('POST', '/api/memory-collections', { name: 'Built app' })).body.collection.id;
result.memory = await json('POST', '/api/memories', { memory: 'The built app remembers this.', collection_id: collectionId });
result.memories = await json('GET', '/api/memories');

const agents = await json('GET', '/api/agents?type=chat');
const chat = agents.body.data[0];
const model = chat.questions.find((q) => q.name === 'model').options.find((m) => m.startsWith('gpt-'));
const chunks = [];
const end = await new Promise((resolve) => {
  api.stream(
    { method: 'POST', path: `/api/agents/${chat.id}/execute`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, answers: { temperature: '0', model, tools: 'no-tools' }, messages: [{ role: 'user', content: 'hi' }] }) },
    (t) => chunks.push(t),
    (status, error) => resolve({ status, error }),
  );
});
result.stream = { end, events: [...chunks.join('').matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1])) };

// The worker process of file processing, started from out/main too.
const up = await api.request({
  method: 'POST',
  path: '/api/files',
  headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
  body: new TextEncoder().encode('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nThe built worker reads this text.\r\n--XyZ--\r\n').buffer,
});
result.upload = { status: up.status, body: JSON.parse(up.body) };
const fileId = result.upload.body.id;
// Linking a waiting file to an agent starts its processing in the worker.
result.link = await json('POST', `/api/agents/${chat.id}/files`, { file_ids: [fileId] });
if (fileId) {
  let file;
  for (let i = 0; i < 1200 && !['completed', 'failed'].includes(file?.status); i++) {
    const r = await json('GET', `/api/files/${fileId}`);
    file = r.body.data ?? r.body.file ?? r.body;
    if (!['completed', 'failed'].includes(file?.status)) await new Promise((r) => setTimeout(r, 50));
  }
  result.file = file;
}
// The built-in embedder, in the built platform: the memory and the file's passage get their vectors.
{
  let e;
  for (let i = 0; i < 400; i++) {
    e = (await json('GET', '/api/settings/embeddings')).body;
    if (e.status === 'error' || (e.total >= 2 && e.embedded === e.total)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  result.embeddings = e;
}
// The readers were launched by the main process (utilityProcess), at background priority.
const readers = state.utilityProcesses.filter((p) => p.modulePath.endsWith('worker.js'));
result.readers = { count: readers.length, execArgv: readers[0]?.options.execArgv, nice: readers.map((r) => (r.exited ? null : os.getPriority(r.pid))) };

// A measurement, not a check: resident memory of the two processes after a quiet spell.
if (process.env.MEASURE_IDLE_MS) {
  await new Promise((r) => setTimeout(r, Number(process.env.MEASURE_IDLE_MS)));
  const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  result.idleRss = { platform: rssOf(platformProcess()[0].pid), main: process.memoryUsage.rss() };
}

// The platform process dies (as a native crash in a model would) while a stream runs: the window
// stays, the stream ends with a sentence, the page hears the engine stopped, then gets a new port.
const firstPid = platformProcess()[0].pid;
const crash = { chunks: [] };
const ended = new Promise((resolve) => {
  api.stream(
    { method: 'POST', path: `/api/agents/${chat.id}/execute`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, answers: { temperature: '0', model, tools: 'no-tools' }, messages: [{ role: 'user', content: 'hold this answer' }] }) },
    (t) => crash.chunks.push(t),
    (status, error) => resolve({ status, error }),
  );
});
await until(() => /^data: /m.test(crash.chunks.join('')), 'the held stream to start');
crash.executionId = JSON.parse(/^data: (.*)$/m.exec(crash.chunks.join(''))[1]).id;
process.kill(firstPid, 'SIGKILL');
crash.end = await ended;
await until(() => engine.some((e) => e.running), 'the engine to run again');
crash.engine = engine;
crash.newPid = platformProcess()[0]?.pid;
crash.windows = state.windows.length;
crash.exitCode = state.exitCode;
crash.execution = await json('GET', `/api/agent-responses/${crash.executionId}`);
crash.memories = await json('GET', '/api/memories');
crash.created = await json('POST', '/api/memories', { memory: 'After the restart.', collection_id: collectionId });
result.crash = crash;

// Quit as the user would: the platform closes before the app goes.
const quitted = new Promise((r) => app.once('fake-quitted', r));
app.quit();
await quitted;
done({ quitted: true, platformExited: platformProcess().length === 0, errorBoxes: state.errorBoxes });
