import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { expectIsolated } from './isolation.js';
import { childEnv, ROOT } from '../api/server-process.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

/**
 * `npm run build`, then the built out/main run by plain Node with a stand-in `electron`
 * (support/fake-electron-node.mjs): every module the bundle leaves external must resolve from
 * out/main, the sandboxed preload must work with only `electron` to require, and the app must
 * do real work (a memory, a streamed execution against a fake provider, a file through the
 * extraction worker). Built once per run, here.
 */
const require = createRequire(import.meta.url);
const nodeBuild = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

/** The test's own build folder (beside out/, so bare imports resolve from the repo's node_modules). */
const BUILT_OUT = 'out-test';

let work: string;
let fake: FakeServer;
beforeAll(async () => {
  // Built into its own folder: rebuilding out/ would swap the renderer under the e2e tests' servers.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, AGENT_DESK_BUILD_OUT: BUILT_OUT } });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  work = tempDir('agent-desk-built-');
  fake = await startFakeOpenAI({ reply: 'Hello from the built app.' });
}, 320_000);
afterAll(async () => {
  await fake?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  result: any;
}

/** Runs the driver (bounded); resolves with its RESULT line. */
function runBuiltApp(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', './test/desktop/support/register-fake-electron.mjs', 'test/desktop/support/drive-built-app.mjs'], {
      cwd: ROOT,
      env: childEnv({ AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', FAKE_ELECTRON_APP_PATH: ROOT, BUILT_OUT, AGENT_DESK_BUILD_OUT: BUILT_OUT, ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = /^RESULT (.*)$/m.exec(stdout)?.[1];
      resolve({ code, stdout, stderr, result: line ? JSON.parse(line) : null });
    });
  });
}

describe('the built app (out/main) under Node with a fake electron', () => {
  it('opens its data dir through the Electron binding, bridges a memory and a streamed execution, processes a file, with secure window options', async () => {
    const dataDir = path.join(work, 'data');
    const binding = path.join(work, 'native', 'electron-38.8.6-linux-x64', 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(binding), { recursive: true });
    fs.copyFileSync(nodeBuild, binding);
    const run = await runBuiltApp({ FAKE_ELECTRON_VERSION: '38.8.6', AGENT_DESK_SQLITE_BINDING: binding, AGENT_DESK_DATA_DIR: dataDir, FAKE_ELECTRON_LOGS: path.join(work, 'logs') });
    const r = run.result;
    expect(r, run.stderr).not.toBeNull();
    expect(r.errorBoxes).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'agent-desk.sqlite'))).toBe(true);
    expect(r.app).toMatchObject({ status: 200, body: { data_dir: dataDir, electron: '38.8.6' } });

    // The window: isolated, sandboxed, no Node, the app's own origin, the built CommonJS preload.
    expect(r.window.url).toBe('agent-desk://app/index.html');
    expectIsolated(r.window.options.webPreferences, path.join(ROOT, BUILT_OUT, 'preload', 'index.cjs'));
    expect(r.bridgeMethods).toEqual(['appInfo', 'openFiles', 'request', 'stream']);
    expect(r.appInfo).toMatchObject({ dataDir });

    expect(r.memory).toMatchObject({ status: 200, body: { memory: { memory: 'The built app remembers this.' } } });
    expect(r.memories.body.memories.map((m: { memory: string }) => m.memory)).toEqual(['The built app remembers this.']);

    expect(r.stream.end).toEqual({ status: 200 });
    const events = r.stream.events as { status: string; output: string }[];
    expect(events.at(-1)!.status).toBe('completed');
    expect(events.filter((e) => e.status === 'running').map((e) => e.output).join('')).toBe('Hello from the built app.');

    // out/main/worker.js, forked by the bundle, read the file (and opened SQLite with the same binding).
    expect(r.file).toMatchObject({ status: 'completed', passages: 1 });
    expect(r.quitted).toBe(true);
  });

  it('every package the bundle leaves external, and every lazily loaded chunk, imports from out/main (ESM/CJS included)', () => {
    const r = spawnSync(process.execPath, ['--import', './test/desktop/support/register-fake-electron.mjs', 'test/desktop/support/import-built-modules.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: childEnv({ FAKE_ELECTRON_APP_PATH: ROOT, BUILT_OUT }),
    });
    const line = /^RESULT (.*)$/m.exec(r.stdout)?.[1];
    expect(line, r.stderr).toBeDefined();
    const res = JSON.parse(line!) as { imported: string[]; chunks: string[]; failures: string[] };
    expect(res.failures).toEqual([]);
    expect(res.imported).toEqual(expect.arrayContaining(['better-sqlite3', 'node-llama-cpp']));
    expect(res.chunks.length).toBeGreaterThan(3);
  });

  it('packaged layout: the binding and the seed catalog come from process.resourcesPath', async () => {
    const resources = path.join(work, 'pkg-resources');
    fs.mkdirSync(path.join(resources, 'native'), { recursive: true });
    fs.copyFileSync(nodeBuild, path.join(resources, 'native', 'better_sqlite3.node'));
    fs.cpSync(path.join(ROOT, 'resources'), path.join(resources, 'resources'), { recursive: true });
    const run = await runBuiltApp({ FAKE_ELECTRON_VERSION: '38.8.6', FAKE_ELECTRON_PACKAGED: '1', FAKE_RESOURCES_PATH: resources, AGENT_DESK_DATA_DIR: path.join(work, 'pkg-data') });
    expect(run.result, run.stderr).not.toBeNull();
    expect(run.result.errorBoxes).toEqual([]);
    expect(run.result.stream.end).toEqual({ status: 200 }); // the seeded chat agent exists: the catalog was found
  });

  it('a binding that cannot load: one sentence in a dialog and in the log, exit 1, no window', async () => {
    const logs = path.join(work, 'bad-logs');
    const missing = path.join(work, 'nowhere', 'better_sqlite3.node');
    const run = await runBuiltApp({ FAKE_ELECTRON_VERSION: '38.8.6', AGENT_DESK_SQLITE_BINDING: missing, AGENT_DESK_DATA_DIR: path.join(work, 'bad-data'), FAKE_ELECTRON_LOGS: logs });
    expect(run.result).toMatchObject({ exitCode: 1 });
    const [box] = run.result.errorBoxes as { title: string; content: string }[];
    expect(box.title).toBe('Agent Desk could not start');
    expect(box.content).toMatch(/^SQLite cannot start in Electron 38\.8\.6, which needs ABI \d+ \(NODE_MODULE_VERSION \d+\): the better-sqlite3 binding .* is missing \(ABI found: none\); to fix it, run `npm start` again/);
    expect(box.content).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(path.join(logs, 'main.log'), 'utf8')).toContain(box.content);
    expect(fs.existsSync(path.join(work, 'bad-data', 'agent-desk.sqlite'))).toBe(false);
  });
});
