import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../api/helpers.js';
import { limit } from '../fixtures/until.js';
import { expectIsolated } from './isolation.js';
import { childEnv, ROOT } from '../api/server-process.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

/**
 * `npm run build`, then the built out/main run by plain Node with a stand-in `electron`
 * (support/fake-electron-node.mjs) whose utilityProcess forks real child processes: the platform
 * (out/main/platform.js) and its readers (out/main/worker.js). Every module the bundle leaves
 * external must resolve from out/main, the sandboxed preload must work with only `electron` to
 * require, and the app must do real work over the page's port to the platform process (a memory,
 * a streamed execution against a fake provider, a file read by a reader the main process
 * launched) and survive the platform process being killed mid-stream. Built once per run, here.
 */

/** The test's own build folder (beside out/, so bare imports resolve from the repo's node_modules). */
const BUILT_OUT = 'out-test';

let work: string;
let fake: FakeServer;
/** Holds every token after the first of an answer to "hold this answer" (the stream the test kills). */
let releaseHeld!: () => void;
const held = new Promise<void>((r) => (releaseHeld = r));
beforeAll(async () => {
  // Built into its own folder: rebuilding out/ would swap the renderer under the e2e tests' servers.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], { cwd: ROOT, encoding: 'utf8', timeout: limit(300_000), env: { ...process.env, AGENT_DESK_BUILD_OUT: BUILT_OUT } });
  if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);
  work = tempDir('agent-desk-built-');
  fake = await startFakeOpenAI({
    reply: 'Hello from the built app.',
    gate: (i, body) => (i > 0 && JSON.stringify(body?.messages ?? []).includes('hold this answer') ? held : undefined),
  });
}, limit(320_000));
afterAll(async () => {
  releaseHeld();
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
    const timer = setTimeout(() => child.kill('SIGKILL'), limit(110_000));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const line = /^RESULT (.*)$/m.exec(stdout)?.[1];
      resolve({ code, stdout, stderr, result: line ? JSON.parse(line) : null });
    });
  });
}

describe('the built app (out/main) under Node with a fake electron', () => {
  it('runs the platform in its own process: the page bridges a memory and a streamed execution over its port, a reader the main process launched processes a file; the platform killed mid-stream leaves the window, comes back, and the killed execution ends failed', async () => {
    const dataDir = path.join(work, 'data');
    const run = await runBuiltApp({ FAKE_ELECTRON_VERSION: '45.5.0', AGENT_DESK_DATA_DIR: dataDir, FAKE_ELECTRON_LOGS: path.join(work, 'logs') });
    const r = run.result;
    expect(r, run.stderr).not.toBeNull();
    expect(r.errorBoxes).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'agent-desk.sqlite'))).toBe(true);
    // The platform answered from its own process, started from the built platform.js.
    expect(r.platformEntry).toBe(path.join(BUILT_OUT, 'main', 'platform.js'));
    expect(r.app).toMatchObject({ status: 200, body: { data_dir: dataDir, electron: '45.5.0', secrets_encrypted: true } });

    // The window: isolated, sandboxed, no Node, the app's own origin, the built CommonJS preload.
    expect(r.window.url).toBe('agent-desk://app/index.html');
    expectIsolated(r.window.options.webPreferences, path.join(ROOT, BUILT_OUT, 'preload', 'index.cjs'));
    expect(r.bridgeMethods).toEqual(['appInfo', 'onEngine', 'openFiles', 'request', 'setLocale', 'stream']);
    expect(r.appInfo).toMatchObject({ dataDir, apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });

    expect(r.memory).toMatchObject({ status: 200, body: { memory: { memory: 'The built app remembers this.' } } });
    expect(r.memories.body.memories.map((m: { memory: string }) => m.memory)).toEqual(['The built app remembers this.']);

    expect(r.stream.end).toEqual({ status: 200 });
    const events = r.stream.events as { status: string; output: string }[];
    expect(events.at(-1)!.status).toBe('completed');
    expect(events.filter((e) => e.status === 'running').map((e) => e.output).join('')).toBe('Hello from the built app.');

    // out/main/worker.js, launched by the main process as a utility process at nice 5, read the file.
    expect(r.file).toMatchObject({ status: 'completed', passages: 1 });
    // The built-in embedder runs in the build too (its thread's code must be in the bundle).
    expect(r.embeddings).toMatchObject({ provider: 'builtin', status: 'ready', error: null });
    expect(r.embeddings.embedded).toBe(r.embeddings.total);
    expect(r.embeddings.total).toBeGreaterThanOrEqual(2);
    expect(r.readers.count).toBeGreaterThan(0);
    expect(r.readers.execArgv).toEqual([expect.stringMatching(/^--max-old-space-size=\d+$/)]);
    if (process.platform !== 'win32') expect(r.readers.nice.filter((n: number | null) => n !== null)).toEqual(r.readers.nice.filter((n: number | null) => n !== null).map(() => 5));

    // Killed mid-stream: the stream ends with a sentence, the page hears it, the window stays.
    const c = r.crash;
    expect(c.end).toEqual({ status: 0, error: "Agent Desk's engine stopped before answering. Try again in a moment." });
    expect(c.engine).toEqual([{ running: false, message: "Agent Desk's engine stopped and is restarting…" }, { running: true }]);
    expect(c.windows).toBe(1);
    expect(c.exitCode).toBeNull();
    expect(c.newPid).toBeGreaterThan(0);
    // The restarted platform failed what the crash cut off, kept what was acknowledged, and works.
    expect(c.execution).toMatchObject({ status: 200, body: { status: 'failed' } });
    expect(c.memories.body.memories.map((m: { memory: string }) => m.memory)).toEqual(['The built app remembers this.']);
    expect(c.created).toMatchObject({ status: 200, body: { memory: { memory: 'After the restart.' } } });

    expect(r.quitted).toBe(true);
    expect(r.platformExited).toBe(true);
  }, limit(120_000));

  it('every package the bundle leaves external, and every lazily loaded chunk, imports from out/main (ESM/CJS included)', () => {
    const r = spawnSync(process.execPath, ['--import', './test/desktop/support/register-fake-electron.mjs', 'test/desktop/support/import-built-modules.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: limit(120_000),
      env: childEnv({ FAKE_ELECTRON_APP_PATH: ROOT, BUILT_OUT }),
    });
    const line = /^RESULT (.*)$/m.exec(r.stdout)?.[1];
    expect(line, r.stderr).toBeDefined();
    const res = JSON.parse(line!) as { imported: string[]; chunks: string[]; failures: string[] };
    expect(res.failures).toEqual([]);
    expect(res.imported).toEqual(expect.arrayContaining(['better-sqlite3', 'node-llama-cpp']));
    expect(res.chunks.length).toBeGreaterThan(3);
  });

  it('packaged layout: the seed catalog comes from process.resourcesPath', async () => {
    const resources = path.join(work, 'pkg-resources');
    fs.cpSync(path.join(ROOT, 'resources'), path.join(resources, 'resources'), { recursive: true });
    const run = await runBuiltApp({ FAKE_ELECTRON_VERSION: '45.5.0', FAKE_ELECTRON_PACKAGED: '1', FAKE_RESOURCES_PATH: resources, AGENT_DESK_DATA_DIR: path.join(work, 'pkg-data') });
    expect(run.result, run.stderr).not.toBeNull();
    expect(run.result.errorBoxes).toEqual([]);
    expect(run.result.stream.end).toEqual({ status: 200 }); // the seeded chat agent exists: the catalog was found
  }, limit(120_000));

  it('a platform that cannot start (a database from a newer Agent Desk): its sentence in a dialog and in the log, exit 1, no window', async () => {
    const logs = path.join(work, 'bad-logs');
    const dataDir = path.join(work, 'future-data');
    fs.mkdirSync(dataDir, { recursive: true });
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'));
    db.pragma('user_version = 9999');
    db.close();
    const run = await runBuiltApp({ AGENT_DESK_DATA_DIR: dataDir, FAKE_ELECTRON_LOGS: logs });
    expect(run.result, run.stderr).toMatchObject({ exitCode: 1 });
    const [box] = run.result.errorBoxes as { title: string; content: string }[];
    expect(box.title).toBe('Agent Desk could not start');
    expect(box.content).toMatch(/schema version 9999, but this Agent Desk only knows up to \d+\. Update Agent Desk/);
    expect(box.content).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(path.join(logs, 'main.log'), 'utf8')).toContain(box.content);
  });
});
