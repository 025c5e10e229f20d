/**
 * Start-up bench: `npm run serve` (the built bundle) beside `npm run serve:dev` (the sources through
 * tsx, as serve ran before the bundle) and a bare `node -e` measured in the same run. Per runner: wall time
 * and CPU time from spawn to the listening line (median of warm starts on an existing data dir, and
 * the first start on a new one), resident memory of the server and its child processes after 5 s
 * idle and after 1,000 mixed requests (lists, memory writes, executions against a fake provider),
 * and which worker threads and child processes were running then. Targets (idle 2-core machine):
 * start <= 500 ms, RSS <= 120 MB idle, <= 150 MB after the requests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import type { BenchPart, Figures } from '../run.js';
import { median } from '../helpers/stats.js';
import { startServer, type ServerProcess } from '../../test/api/server-process.js';
import { startFakeOpenAI, type FakeServer } from '../../test/fixtures/fake-openai.js';
import { ensureServeBuilt } from '../../scripts/build-serve.mjs';

const KEY = 'bench-key-startup-0123456789';
const WARM_STARTS = 5;
const IDLE_MS = 5_000;
const REQUESTS = 1_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The pids of a process and all its descendants (Linux /proc). */
function tree(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  return [...parent.keys()].filter((pid) => {
    for (let p: number | undefined = pid, n = 0; p && n < 64; p = parent.get(p), n++) if (p === root) return true;
    return false;
  });
}

const readProc = (pid: number, file: string) => {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** Resident memory of a process and its descendants, in MB. */
const treeRssMb = (root: number) => tree(root).reduce((n, pid) => n + Number(/VmRSS:\s+(\d+)/.exec(readProc(pid, 'status'))?.[1] ?? 0) / 1024, 0);

/** CPU time (user + system, all threads) a process has used, in ms. */
function cpuMs(pid: number): number {
  const stat = readProc(pid, 'stat');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** What runs beside the main thread: named worker threads (Node's own threads left out) and child processes. */
function running(pid: number): string {
  const own = new Set(['MainThread', 'node', 'DelayedTaskSche', 'V8Worker', 'SignalInspector', 'libuv-worker']);
  const threads = fs
    .readdirSync(`/proc/${pid}/task`)
    .map((t) => readProc(pid, `task/${t}/comm`).trim())
    .filter((n) => n && !own.has(n));
  const kids = tree(pid)
    .filter((p) => p !== pid)
    .map((p) => path.basename(readProc(p, 'cmdline').split('\0')[1] ?? '?'));
  return [...threads.map((t) => `thread ${t}`), ...kids.map((k) => `process ${k}`)].join(', ') || 'none';
}

/** A bare Node start: spawn to its first line, and its RSS after the idle time. */
async function bareNode(): Promise<{ startMs: number; cpuMs: number; rssMb: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', "process.stdout.write('ready\\n'); setTimeout(() => {}, 600000)"], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const startMs = performance.now() - t0;
  const cpu = cpuMs(child.pid!);
  await sleep(IDLE_MS);
  const rssMb = treeRssMb(child.pid!);
  child.kill('SIGKILL');
  return { startMs, cpuMs: cpu, rssMb };
}

async function timedStart(runner: 'node' | 'dev', dataDir: string, env: Record<string, string>): Promise<{ server: ServerProcess; ms: number; cpu: number }> {
  const t0 = performance.now();
  const server = await startServer({ dataDir, runner, env, timeoutMs: 120_000 });
  return { server, ms: performance.now() - t0, cpu: cpuMs(server.pid) };
}

/** 1,000 requests: per round of 50, lists, a memory created, updated and deleted, and an execution. */
async function mixedRequests(url: string): Promise<{ errors: number; executions: number }> {
  const req = (p: string, method = 'GET', body?: unknown) =>
    fetch(`${url}${p}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  let sent = 0;
  let errors = 0;
  let executions = 0;
  const check = async (r: Promise<Response>) => {
    sent++;
    const res = await r;
    const json = (await res.json().catch(() => null)) as { memory?: { id: number } } | null;
    if (res.status !== 200) errors++;
    return json;
  };
  for (let round = 0; sent < REQUESTS; round++) {
    const lists = ['/api/agents', '/api/memories?per_page=20', '/api/memory-collections', '/api/files', '/api/agents?q=chat', '/api/webhooks'];
    await Promise.all(lists.map((p) => check(req(p))));
    const made = await check(req('/api/memories', 'POST', { memory: `bench memory ${round} ${'m'.repeat(round % 200)}` }));
    if (made?.memory?.id) {
      await check(req(`/api/memories/${made.memory.id}`, 'PATCH', { memory: `updated ${round}` }));
      if (round % 2) await check(req(`/api/memories/${made.memory.id}`, 'DELETE'));
    }
    if (round % 2 === 0) {
      executions++;
      await check(req('/api/agents/1/execute', 'POST', { model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: `bench ${round}` }] }));
    }
    for (let i = 0; i < 40 && sent < REQUESTS; i += 8) await Promise.all(lists.concat(['/api/agents/1']).concat(['/api/memories']).map((p) => check(req(p))));
  }
  return { errors, executions };
}

async function measure(runner: 'node' | 'dev', label: string, fake: FakeServer, bare: { startMs: number; cpuMs: number; rssMb: number }): Promise<Figures> {
  const f: Figures = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-desk-bench-startup-${runner}-`));
  const env = { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_LOG_LEVEL: 'error' };
  try {
    // First start: a new data dir (its migrations and seed).
    const first = await timedStart(runner, dir, env);
    await first.server.stop();
    f[`${label}: first start (new data dir) ms`] = first.ms;
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < WARM_STARTS; i++) {
      const s = await timedStart(runner, dir, env);
      walls.push(s.ms);
      cpus.push(s.cpu);
      await s.server.stop();
    }
    f[`${label}: start to listening ms (median of ${WARM_STARTS})`] = median(walls);
    f[`${label}: start ratio to bare node`] = median(walls) / bare.startMs;
    f[`${label}: CPU to listening ms (median)`] = median(cpus);
    f[`${label}: CPU ratio to bare node`] = median(cpus) / Math.max(bare.cpuMs, 10);

    const { server } = await timedStart(runner, dir, env);
    try {
      await sleep(IDLE_MS);
      const idle = treeRssMb(server.pid);
      f[`${label}: RSS after ${IDLE_MS / 1000} s idle MB`] = idle;
      f[`${label}: RSS idle ratio to bare node`] = idle / bare.rssMb;
      f[`${label}: running when idle`] = running(server.pid);
      const t0 = performance.now();
      const r = await mixedRequests(server.url);
      f[`${label}: ${REQUESTS} mixed requests s`] = (performance.now() - t0) / 1000;
      f[`${label}: request errors`] = r.errors;
      f[`${label}: RSS after ${REQUESTS} requests MB`] = treeRssMb(server.pid);
      f[`${label}: running after the requests`] = running(server.pid);
      // The first round also pays for the workers it starts (tokenizer, embedder and its model); the second shows the steady state.
      const t1 = performance.now();
      const again = await mixedRequests(server.url);
      f[`${label}: ${REQUESTS} more requests s`] = (performance.now() - t1) / 1000;
      f[`${label}: request errors`] = r.errors + again.errors;
      f[`${label}: RSS after ${2 * REQUESTS} requests MB`] = treeRssMb(server.pid);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return f;
}

const bench: BenchPart = {
  name: 'startup',
  async run(): Promise<Figures> {
    if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads processes from /proc (Linux only).');
    // The bundle is built before anything is timed (a start that builds it says so and takes a second more).
    const buildStart = performance.now();
    const built = await ensureServeBuilt({ note: () => {} });
    const f: Figures = { 'bundle built now (ms, 0 if it was fresh)': built ? performance.now() - buildStart : 0, 'load average (1 min)': os.loadavg()[0], cores: os.cpus().length };
    const bare = await bareNode();
    f['bare node -e: start ms'] = bare.startMs;
    f['bare node -e: CPU ms'] = bare.cpuMs;
    f['bare node -e: RSS MB'] = bare.rssMb;
    const fake = await startFakeOpenAI({ reply: 'Bench reply.' });
    try {
      Object.assign(f, await measure('node', 'npm run serve (bundle)', fake, bare));
      Object.assign(f, await measure('dev', 'npm run serve:dev (tsx)', fake, bare));
    } finally {
      await fake.close();
    }
    return f;
  },
};

export default bench;
