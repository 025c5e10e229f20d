/**
 * A lean start: `npm run serve` runs the built bundle (no TypeScript loader), rebuilds it when a
 * source is newer, and starts its worker threads and processes only when something needs them.
 * Linux: threads and processes are read from /proc. No wall-clock assertion anywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, ROOT, childEnv, startServer, type ServerProcess } from '../api/server-process.js';
import { tempDir } from '../api/helpers.js';
import { limit, until } from '../fixtures/until.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { openDatabase } from '../../src-main/platform/db/connection.js';
import { startCheckpointer } from '../../src-main/platform/db/checkpointer.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { WORKERS } from '../../scripts/build-serve.mjs';

const KEY = 'lean-start-key-0123456789';
const PROBE = pathToFileURL(path.join(ROOT, 'test/fixtures/module-probe.mjs')).href;

/** Names of a process's threads (Node names a worker thread after its `name` option, else WorkerThread). */
function threads(pid: number): string[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((t) => {
    try {
      return [fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim()];
    } catch {
      return [];
    }
  });
}

/** Command lines of a process's direct children. */
function children(pid: number): string[] {
  const out: string[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

interface Probe {
  execArgv: string[];
  argv: string[];
  modules: string[];
}

/** Starts serve with the module probe, stops it, and returns what the probe saw in the server process. */
async function probeServe(runner: 'node' | 'dev'): Promise<Probe> {
  const dir = tempDir('agent-desk-lean-probe-');
  try {
    const s = await startServer({ dataDir: path.join(dir, 'data'), runner, env: { NODE_OPTIONS: `--import=${PROBE}`, MODULE_PROBE_DIR: dir } });
    // An answer first: by then serve has set its signal handlers (they follow the listening line).
    await (await fetch(`${s.url}/api/agents`)).arrayBuffer();
    expect(await s.stop()).toBe(0);
    return JSON.parse(fs.readFileSync(path.join(dir, `${s.pid}.json`), 'utf8')) as Probe;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const isTypeScript = (url: string) => /\.[cm]?tsx?$/.test(new URL(url).pathname);
const isTsx = (url: string) => url.includes('/node_modules/tsx/');

describe('npm run serve runs the built bundle', () => {
  it('is `node scripts/cli.mjs serve`, which starts from out/serve with no TypeScript loader in the process', async () => {
    const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // startServer's default runner spawns exactly this.
    expect(scripts.serve).toBe(`node ${BUILT_CLI} serve`);
    const p = await probeServe('node');
    expect(p.argv[1]).toBe(path.join(ROOT, BUILT_CLI));
    expect(p.execArgv.join(' ')).not.toMatch(/tsx/);
    expect(p.modules).toContain(pathToFileURL(path.join(ROOT, 'out/serve/main.js')).href);
    expect(p.modules.filter(isTsx)).toEqual([]);
    expect(p.modules.filter(isTypeScript)).toEqual([]);
  });

  it('(the probe does see tsx and TypeScript where they are: npm run serve:dev)', async () => {
    const p = await probeServe('dev');
    expect(p.execArgv).toEqual(['--import', 'tsx']);
    expect(p.modules.some(isTsx)).toBe(true);
    expect(p.modules.some(isTypeScript)).toBe(true);
  });

  it('builds each worker entry the code resolves with kernel/worker-entry.ts, under the name the desktop build gives it', () => {
    // workerEntry(import.meta.url, './source.ts', './name.js') in the sources: name.js must sit next to the main bundle.
    const resolved: Record<string, string> = {};
    for (const file of fs.readdirSync(path.join(ROOT, 'src-main/platform'), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue;
      const abs = path.join(ROOT, 'src-main/platform', file);
      for (const m of fs.readFileSync(abs, 'utf8').matchAll(/workerEntry\(import\.meta\.url, '([^']+)\.ts', '\.\/([\w-]+)\.js'\)/g)) {
        resolved[m[2]] = path.relative(ROOT, path.resolve(path.dirname(abs), `${m[1]}.ts`)).split(path.sep).join('/');
      }
    }
    expect(resolved).toEqual(WORKERS);
    const config = fs.readFileSync(path.join(ROOT, 'electron.vite.config.ts'), 'utf8');
    const desktop = Object.fromEntries([...config.matchAll(/^\s*'?([\w-]+)'?: resolve\('(src-main\/platform\/[^']+)'\)/gm)].map((m) => [m[1], m[2]]));
    expect(desktop).toMatchObject(WORKERS);
  });
});

describe('scripts/cli.mjs rebuilds the bundle when a source is newer', () => {
  // A bundle of its own, two levels below the project as out/serve is, so the shared one is never replaced.
  const out = path.join(ROOT, 'out', `serve-test-${process.pid}`);
  const dataDir = tempDir('agent-desk-lean-build-');
  afterAll(() => {
    for (const p of [out, `${out}.lock`, dataDir]) fs.rmSync(p, { recursive: true, force: true });
  });

  const keysList = () =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BUILT_CLI, 'keys', 'list', '--data-dir', dataDir], { cwd: ROOT, env: childEnv({ AGENT_DESK_SERVE_OUT: path.relative(ROOT, out) }), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b) => (stdout += b));
      child.stderr.on('data', (b) => (stderr += b));
      const timer = setTimeout(() => child.kill('SIGKILL'), limit(120_000));
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  const buildLines = (stderr: string) => stderr.split('\n').filter((l) => /building the server bundle/.test(l));

  it('builds once with one line, runs the bundle as it is while fresh, and builds again after a source changed', async () => {
    const first = await keysList();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/No keys yet/);
    expect(buildLines(first.stderr)).toEqual([expect.stringMatching(/not built yet/)]);
    const stampFile = path.join(out, 'build.json');
    const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { startedAt: number; inputs: string[] };
    expect(stamp.inputs).toContain('src-main/platform/cli/main.ts');

    const fresh = await keysList();
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(buildLines(fresh.stderr)).toEqual([]);

    // The bundle as if built before the last edit of cli/main.ts (the same as editing it now, without touching a shared source).
    const edited = fs.statSync(path.join(ROOT, 'src-main/platform/cli/main.ts')).mtimeMs;
    fs.writeFileSync(stampFile, JSON.stringify({ ...stamp, startedAt: edited - 1000 }));
    const stale = await keysList();
    expect(stale.code, stale.stderr).toBe(0);
    expect(buildLines(stale.stderr)).toEqual([expect.stringMatching(/changed\)/)]);
    expect((JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { startedAt: number }).startedAt).toBeGreaterThan(edited);
  });
});

describe('the WAL checkpoint thread starts once writes fill the WAL', () => {
  it('waits with the automatic checkpoint on, then starts its thread and takes over', async () => {
    const dir = tempDir('agent-desk-lean-wal-');
    const db = openDatabase(dir);
    try {
      db.exec('CREATE TABLE blobs(id INTEGER PRIMARY KEY, data BLOB)');
      db.pragma('wal_checkpoint(TRUNCATE)');
      const cp = startCheckpointer(db, createLogger('silent'), { startAtPages: 64, watchEveryMs: 10, everyMs: 20 });
      expect(cp.state).toBe('waiting');
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
      const ins = db.prepare('INSERT INTO blobs(data) VALUES (?)');
      // 16 KB rows: 64 pages are passed after 16 of them.
      for (let i = 0; i < 40; i++) ins.run(Buffer.alloc(16 * 1024, i));
      await until('the checkpoint thread to take over', () => cp.state === 'active');
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      await cp.stop();
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a served platform starts workers on first need', () => {
  const dir = tempDir('agent-desk-lean-lazy-');
  let fake: FakeServer;
  let server: ServerProcess;
  const req = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { authorization: `Bearer ${KEY}`, ...(init.headers ?? {}) } });
  beforeAll(async () => {
    fake = await startFakeOpenAI({ reply: 'Lean.' });
    server = await startServer({ dataDir: dir, env: { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake' } });
  }, limit(120_000));
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('idle and answering lists: no worker thread, no child process', async () => {
    for (const p of ['/api/agents', '/api/memories', '/api/files']) expect((await req(p)).status).toBe(200);
    const names = threads(server.pid);
    // Before, the tokenizer and the checkpointer started with the server (unnamed: WorkerThread).
    expect(names.filter((n) => ['WorkerThread', 'tokenizer', 'checkpointer', 'embedder'].includes(n))).toEqual([]);
    expect(children(server.pid)).toEqual([]);
  });

  it('a file to read starts a reader forked by the server itself; its passages to embed start the embedder, forked the same way', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Lean starts read files only when there is one.\n\nA second paragraph to embed.']), 'lean.txt');
    const up = await req('/api/files', { method: 'POST', body: form });
    expect(up.status).toBe(200);
    const { id } = (await up.json()) as { id: number };
    const processed = await req(`/api/files/${id}/process`, { method: 'POST' });
    expect(((await processed.json()) as { status: string }).status).toBe('completed');
    // The embedder is a reader too: a process the server forks from out/serve/embedder.js (its exit gives its memory back).
    await until('the embedder process', () => children(server.pid).some((c) => c.includes(path.join('out', 'serve', 'embedder.js'))));
    // Every child of the server is a reader from out/serve (the file reader may still be there, or
    // gone): no process stands between the server and its readers, and no thread forks them.
    for (const c of children(server.pid)) expect(c).toMatch(/out\/serve\/(worker|embedder)\.js/);
    expect(threads(server.pid)).not.toContain('WorkerThread');
    expect(threads(server.pid)).not.toContain('tokenizer');
  });

  it('an execution counts tokens without a tokenizer thread (its tables are built on the main thread in slices)', async () => {
    const res = await req('/api/agents/1/execute', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stream: false, model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(threads(server.pid)).not.toContain('tokenizer');
  });
});
