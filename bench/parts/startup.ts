/**
 * Start-up bench: `npm run serve` (the built bundle) beside `npm run serve:dev` (the sources through
 * tsx, as serve ran before the bundle) and a bare `node -e` measured in the same run. Per runner: wall time
 * and CPU time from spawn to the listening line (median of warm starts on an existing data dir, and
 * the first start on a new one), resident memory of the server and its child processes after 5 s
 * idle and after 1,000 mixed requests (lists, memory writes, executions against a fake provider),
 * and which worker threads and child processes were running then, and again after a quiet spell past
 * the workers' idle end. The desktop app's platform process is measured the same way in the same run:
 * the app is built into bench/results/desk-out/, its built main runs under the tests' fake electron
 * (bench/desk-driver.mjs), and the requests go through the page's bridge; its start is timed from the
 * main process's fork of the platform to its ready message and to the page's first answer.
 * Targets (idle 2-core machine): start <= 500 ms, RSS <= 120 MB idle, <= 150 MB after the requests.
 * BENCH_STARTUP_RUNNERS=serve,dev,desktop picks runners (all by default).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { BenchPart, Figures } from '../run.js';
import { median } from '../helpers/stats.js';
import { ROOT, childEnv, startServer, type ServerProcess } from '../../test/api/server-process.js';
import { startFakeOpenAI, type FakeServer } from '../../test/fixtures/fake-openai.js';
import { ensureServeBuilt } from '../../scripts/build-serve.mjs';
import { mixedRequests } from '../helpers/request-mix.mjs';
import { processTree } from '../../test/load/proc-tree.js';

const KEY = 'bench-key-startup-0123456789';
const WARM_STARTS = 5;
const IDLE_MS = 5_000;
const REQUESTS = 1_000;
/** The quiet spell after the requests: past the workers' idle end (60 s by default). */
const QUIET_MS = 70_000;
/** The desktop app's build for this bench, beside out/ (bare imports resolve from the repo's node_modules). */
const DESK_OUT = 'bench/results/desk-out';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const readProc = (pid: number, file: string) => {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
};

/** Resident memory of a process and its descendants, in MB. */
const treeRssMb = (root: number) => processTree(root).reduce((n, pid) => n + Number(/VmRSS:\s+(\d+)/.exec(readProc(pid, 'status'))?.[1] ?? 0) / 1024, 0);

/**
 * Proportional memory of a process and its descendants, in MB: each page shared by n processes
 * (the node binary's code, mapped by every Node process) counts 1/n in each, so the sum is what
 * the processes hold together, where the RSS sum counts the shared pages once per process.
 */
const treePssMb = (root: number) => processTree(root).reduce((n, pid) => n + Number(/^Pss:\s+(\d+)/m.exec(readProc(pid, 'smaps_rollup'))?.[1] ?? 0) / 1024, 0);

/** Proportional memory of one process alone, in MB. */
const ownPssMb = (pid: number) => Number(/^Pss:\s+(\d+)/m.exec(readProc(pid, 'smaps_rollup'))?.[1] ?? 0) / 1024;

/** Resident memory of one process alone, in MB. */
const ownRssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readProc(pid, 'status'))?.[1] ?? 0) / 1024;

/**
 * The desktop app's platform process and the readers the main process launched for it (the
 * embedder, file and page readers are utility processes of the main process, not children of the
 * platform process), in MB: what the platform costs in all.
 */
const platformWithReadersMb = (main: number) => treeRssMb(main) - ownRssMb(main);

/** Each process of a tree (the root first) with its resident memory, in MB: where a sum's megabytes are. */
const rssByProcess = (root: number) =>
  processTree(root)
    .map((p) => `${p === root ? 'root' : path.basename(readProc(p, 'cmdline').split('\0').filter((a) => /\.m?js$/.test(a)).pop() ?? '?')} ${ownRssMb(p).toFixed(0)}`)
    .join(', ');

/** The processes under the desktop's main process (the platform and the readers it launched), by entry file. */
const launchedBy = (main: number) =>
  processTree(main)
    .filter((p) => p !== main)
    .map((p) => path.basename(readProc(p, 'cmdline').split('\0').filter((a) => /\.m?js$/.test(a)).pop() ?? '?'))
    .join(', ') || 'none';

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
  const kids = processTree(pid)
    .filter((p) => p !== pid)
    .map((p) => path.basename(readProc(p, 'cmdline').split('\0').filter((a) => /\.m?js$/.test(a)).pop() ?? '?'));
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

/** The mixed requests over HTTP with the bench's key. */
function httpMix(url: string, total: number) {
  return mixedRequests(async (p, method = 'GET', body) => {
    const res = await fetch(`${url}${p}`, { method, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json().catch(() => null) };
  }, total);
}

async function measure(runner: 'node' | 'dev', label: string, fake: FakeServer, bare: { startMs: number; cpuMs: number; rssMb: number }): Promise<Figures> {
  const f: Figures = {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `agent-desk-bench-startup-${runner}-`));
  const env = { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_LOG_LEVEL: 'error', ...idleEnv };
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
      const r = await httpMix(server.url, REQUESTS);
      f[`${label}: ${REQUESTS} mixed requests s`] = (performance.now() - t0) / 1000;
      f[`${label}: request errors`] = r.errors;
      f[`${label}: RSS after ${REQUESTS} requests MB`] = treeRssMb(server.pid);
      f[`${label}: server process alone, RSS after ${REQUESTS} requests MB`] = ownRssMb(server.pid);
      f[`${label}: PSS (shared pages counted once) after ${REQUESTS} requests MB`] = treePssMb(server.pid);
      f[`${label}: running after the requests`] = running(server.pid);
      f[`${label}: RSS by process after ${REQUESTS} requests MB`] = rssByProcess(server.pid);
      // The first round also pays for the workers it starts (tokenizer, embedder and its model); the second shows the steady state.
      const t1 = performance.now();
      const again = await httpMix(server.url, REQUESTS);
      f[`${label}: ${REQUESTS} more requests s`] = (performance.now() - t1) / 1000;
      f[`${label}: request errors`] = r.errors + again.errors;
      f[`${label}: RSS after ${2 * REQUESTS} requests MB`] = treeRssMb(server.pid);
      await sleep(QUIET_MS);
      f[`${label}: RSS ${QUIET_MS / 1000} s after the requests MB`] = treeRssMb(server.pid);
      f[`${label}: server process alone, RSS ${QUIET_MS / 1000} s after the requests MB`] = ownRssMb(server.pid);
      f[`${label}: PSS (shared pages counted once) ${QUIET_MS / 1000} s after the requests MB`] = treePssMb(server.pid);
      f[`${label}: running ${QUIET_MS / 1000} s after the requests`] = running(server.pid);
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return f;
}

/** The desktop driver (bench/desk-driver.mjs): the built main under the fake electron, spoken to by lines. */
interface Desk {
  child: ChildProcess;
  /** The next `BENCH <tag> <json>` line the driver prints. */
  next(tag: string): Promise<Record<string, number | boolean>>;
  send(line: string): void;
  quit(): Promise<void>;
}

function startDesk(dataDir: string, env: Record<string, string>): Desk {
  const child = spawn(process.execPath, ['--import', './test/desktop/support/register-fake-electron.mjs', 'bench/desk-driver.mjs'], {
    cwd: ROOT,
    env: childEnv({ ...env, FAKE_ELECTRON_APP_PATH: ROOT, BUILT_OUT: DESK_OUT, AGENT_DESK_BUILD_OUT: DESK_OUT, AGENT_DESK_DATA_DIR: dataDir, FAKE_ELECTRON_LOGS: path.join(dataDir, '..', 'logs') }),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const wake: (() => void)[] = [];
  let ended = false;
  readline.createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    wake.splice(0).forEach((w) => w());
  });
  child.once('exit', () => {
    ended = true;
    wake.splice(0).forEach((w) => w());
  });
  const next = async (tag: string) => {
    for (;;) {
      const i = lines.findIndex((l) => l.startsWith(`BENCH ${tag} `) || l.startsWith('BENCH FAILED '));
      if (i >= 0) {
        const [line] = lines.splice(0, i + 1).slice(-1);
        if (line.startsWith('BENCH FAILED ')) throw new Error(`the desktop app did not start: ${line}`);
        return JSON.parse(line.slice(`BENCH ${tag} `.length)) as Record<string, number | boolean>;
      }
      if (ended) throw new Error(`the desktop driver ended before ${tag}`);
      await new Promise<void>((r) => wake.push(r));
    }
  };
  const send = (line: string) => child.stdin!.write(`${line}\n`);
  return {
    child,
    next,
    send,
    async quit() {
      send('quit');
      await next('QUIT');
      if (!ended) await new Promise((r) => child.once('exit', r));
    },
  };
}

/** The desktop app's platform process (the built bench/results/desk-out/main under the fake electron), as serve is measured. */
async function measureDesktop(fake: FakeServer): Promise<Figures> {
  const label = 'desktop platform process';
  const f: Figures = {};
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-startup-desk-'));
  const dataDir = path.join(work, 'data');
  const env = { AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_LOG_LEVEL: 'error', ...idleEnv };
  const launch = async () => {
    const desk = startDesk(dataDir, env);
    try {
      return { desk, ready: await desk.next('READY') };
    } catch (err) {
      desk.child.kill('SIGKILL');
      throw err;
    }
  };
  try {
    const first = await launch();
    await first.desk.quit();
    f[`${label}: first start, fork to ready ms (new data dir)`] = first.ready.forkToReadyMs as number;
    const toReady: number[] = [];
    const toAnswer: number[] = [];
    for (let i = 0; i < WARM_STARTS; i++) {
      const { desk, ready } = await launch();
      toReady.push(ready.forkToReadyMs as number);
      toAnswer.push(ready.forkToFirstAnswerMs as number);
      await desk.quit();
    }
    f[`${label}: fork to ready ms (median of ${WARM_STARTS})`] = median(toReady);
    f[`${label}: fork to the page's first answer ms (median)`] = median(toAnswer);

    const { desk, ready } = await launch();
    const pid = ready.platformPid as number;
    try {
      await sleep(IDLE_MS);
      f[`${label}: RSS after ${IDLE_MS / 1000} s idle MB`] = treeRssMb(pid);
      f[`${label}: with its readers, RSS after ${IDLE_MS / 1000} s idle MB`] = platformWithReadersMb(desk.child.pid!);
      f[`${label}: running when idle`] = running(pid);
      f[`${label}: main process (plain Node + fake electron, not Electron) RSS MB`] = treeRssMb(desk.child.pid!) - treeRssMb(pid);
      let errors = 0;
      for (const [n, round] of [['', 1], [' more', 2]] as const) {
        desk.send(`requests ${REQUESTS}`);
        const r = await desk.next('DONE');
        errors += r.errors as number;
        f[`${label}: ${REQUESTS}${n} requests (bridge) s`] = r.seconds as number;
        f[`${label}: RSS after ${round * REQUESTS} requests MB`] = treeRssMb(pid);
        f[`${label}: with its readers, RSS after ${round * REQUESTS} requests MB`] = platformWithReadersMb(desk.child.pid!);
        f[`${label}: with its readers, PSS (shared pages counted once) after ${round * REQUESTS} requests MB`] = treePssMb(desk.child.pid!) - ownPssMb(desk.child.pid!);
        if (round === 1) {
          f[`${label}: RSS by process under the main process after ${REQUESTS} requests MB`] = rssByProcess(desk.child.pid!).replace(/^root \d+(, )?/, '');
          f[`${label}: running after the requests`] = running(pid);
          f[`${label}: processes of the main process after the requests`] = launchedBy(desk.child.pid!);
        }
      }
      f[`${label}: request errors`] = errors;
      await sleep(QUIET_MS);
      f[`${label}: RSS ${QUIET_MS / 1000} s after the requests MB`] = treeRssMb(pid);
      f[`${label}: with its readers, RSS ${QUIET_MS / 1000} s after the requests MB`] = platformWithReadersMb(desk.child.pid!);
      f[`${label}: with its readers, PSS (shared pages counted once) ${QUIET_MS / 1000} s after the requests MB`] = treePssMb(desk.child.pid!) - ownPssMb(desk.child.pid!);
      f[`${label}: running ${QUIET_MS / 1000} s after the requests`] = running(pid);
      f[`${label}: processes of the main process ${QUIET_MS / 1000} s after the requests`] = launchedBy(desk.child.pid!);
    } finally {
      await desk.quit().catch(() => desk.child.kill('SIGKILL'));
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return f;
}

/** Builds the desktop app's main and preload into DESK_OUT (electron-vite, as npm run build does into out/). */
function buildDesk(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '-c', 'bench/desk-vite.config.ts'], { cwd: ROOT, env: { ...process.env, AGENT_DESK_BUILD_OUT: DESK_OUT }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b) => (err += b));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the desktop build failed:\n${err}`))));
  });
}

/** BENCH_WORKER_IDLE_S: the workers' idle end for this run (AGENT_DESK_WORKER_IDLE_S; 0 never ends them), else their default. */
const idleEnv: Record<string, string> = process.env.BENCH_WORKER_IDLE_S ? { AGENT_DESK_WORKER_IDLE_S: process.env.BENCH_WORKER_IDLE_S } : {};

/** Which runners to measure (BENCH_STARTUP_RUNNERS=serve,dev,desktop; all by default). */
const runners = new Set((process.env.BENCH_STARTUP_RUNNERS ?? 'serve,dev,desktop').split(','));

const bench: BenchPart = {
  name: 'startup',
  async run(): Promise<Figures> {
    if (!fs.existsSync('/proc/self/status')) throw new Error('This bench reads processes from /proc (Linux only).');
    // The bundle is built before anything is timed (a start that builds it says so and takes a second more).
    const buildStart = performance.now();
    const built = await ensureServeBuilt({ note: () => {} });
    const f: Figures = { 'bundle built now (ms, 0 if it was fresh)': built ? performance.now() - buildStart : 0 };
    if (runners.has('desktop')) {
      const t0 = performance.now();
      await buildDesk();
      f[`desktop app built into ${DESK_OUT}/ ms`] = performance.now() - t0;
    }
    f['workers end after idle (s)'] = idleEnv.AGENT_DESK_WORKER_IDLE_S ?? 'default (60)';
    f['load average (1 min)'] = os.loadavg()[0];
    f.cores = os.cpus().length;
    const bare = await bareNode();
    f['bare node -e: start ms'] = bare.startMs;
    f['bare node -e: CPU ms'] = bare.cpuMs;
    f['bare node -e: RSS MB'] = bare.rssMb;
    const fake = await startFakeOpenAI({ reply: 'Bench reply.' });
    try {
      if (runners.has('serve')) Object.assign(f, await measure('node', 'npm run serve (bundle)', fake, bare));
      if (runners.has('dev')) Object.assign(f, await measure('dev', 'npm run serve:dev (tsx)', fake, bare));
      if (runners.has('desktop')) Object.assign(f, await measureDesktop(fake));
    } finally {
      await fake.close();
    }
    return f;
  },
};

export default bench;
