/**
 * Event-loop bench: the largest delays of the platform's main thread (perf_hooks
 * monitorEventLoopDelay, sampled every 5 ms) while it
 *  - starts (database, migrations, seed, HTTP server, the tokenizer's tables; `startPlatform`, as the app and `serve` do),
 *  - runs its first execution (fake OpenAI-compatible provider on loopback, in-process),
 *  - processes a generated 100 MB PDF (uploaded and processed by a client in another process),
 *  - delivers a burst of 1,000 webhooks (receiver in another process),
 *  - takes in 500 files (BENCH_EVENTLOOP_FILES; uploaded and processed by a client in another
 *    process, 8 at a time).
 * Targets: p99 <= 20 ms and max <= 50 ms per phase. The baseline is an idle loop measured in
 * the same run (timer jitter of the machine itself).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { monitorEventLoopDelay, PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import type { BenchPart, Figures } from '../run.js';
import { startFakeOpenAI } from '../../test/fixtures/fake-openai.js';
import { startPlatform, type Platform } from '../../src-main/platform/platform.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { tokenCounter } from '../../src-main/platform/engine/tokens.js';
import { startReceiver } from './webhooks.js';

const KEY = 'bench-key-eventloop-0123456789';
/** Files in the many-files phase (BENCH_EVENTLOOP_FILES; each is uploaded and processed, which takes minutes at 500). */
const FILES = Number(process.env.BENCH_EVENTLOOP_FILES ?? 500);
const MB = 1024 * 1024;
/**
 * Phases to run after start-up (BENCH_EVENTLOOP_PHASES, comma-separated: execution, pdf,
 * webhooks, files; all by default), so one cause can be measured again without the others.
 */
const PHASES = new Set((process.env.BENCH_EVENTLOOP_PHASES ?? 'execution,pdf,webhooks,files').split(',').map((s) => s.trim()));

/** The uploading client, in its own process so its work is not counted against the server's loop. */
const CLIENT = `
const fs = require('node:fs');
const path = require('node:path');
const { url, key, files, concurrency } = JSON.parse(process.argv[1]);
const auth = { authorization: 'Bearer ' + key };
let next = 0, done = 0, failed = [];
async function one(file) {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const up = await fetch(url + '/api/files', { method: 'POST', headers: auth, body: form });
  const j = await up.json();
  if (!j.id) throw new Error('upload ' + up.status + ' ' + JSON.stringify(j));
  let pr = await (await fetch(url + '/api/files/' + j.id + '/process', { method: 'POST', headers: auth })).json();
  // The process call answers after its wait (100 s) even when the file's vectors are still being
  // made (a loaded machine, a long queue): the file is done when it leaves in_progress (or after
  // 10 more minutes, counted as not completed).
  const end = Date.now() + 600000;
  while (pr.status === 'in_progress' && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 500));
    pr = await (await fetch(url + '/api/files/' + j.id, { headers: auth })).json();
  }
  if (pr.status !== 'completed') failed.push(pr.status + ' ' + (pr.error ?? ''));
}
(async () => {
  // Started before the measured phase (spawning is the bench's cost): it goes when told on stdin.
  console.log('ready');
  await new Promise((r) => process.stdin.once('data', r));
  process.stdin.pause();
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < files.length) await one(files[next++]); }));
  console.log(JSON.stringify({ done: files.length, failed }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

/** Spawns the client and waits until it is ready; `go()` starts the uploads and resolves with its report. */
async function spawnClient(url: string, files: string[], concurrency: number): Promise<{ go(): Promise<{ done: number; failed: string[] }> }> {
  const child = spawn(process.execPath, ['-e', CLIENT, JSON.stringify({ url, key: KEY, files, concurrency })], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const exited = new Promise<{ done: number; failed: string[] }>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice(out.indexOf('\n') + 1))) : reject(new Error(`client exited ${code}`))));
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b) => {
      out += b;
      if (out.includes('\n')) resolve();
    });
    exited.catch(reject);
  });
  return {
    go() {
      child.stdin!.end('go\n');
      return exited;
    },
  };
}

/**
 * A PDF of about `mb` MB: 200 pages of text plus an incompressible embedded file. Made in a child
 * process: building it here would leave the bench's heap (the platform's process) hundreds of MB
 * larger than the app's, and every later fork of an extraction reader would copy that.
 */
async function bigPdf(file: string, mb: number): Promise<void> {
  const documents = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/documents.ts')).href;
  const code = `
    import crypto from 'node:crypto';
    import fs from 'node:fs';
    import { PDFDocument } from 'pdf-lib';
    import { makePdf } from ${JSON.stringify(documents)};
    const words = 'market growth forecast revenue customer product region quarter analysis strategy'.split(' ');
    const base = await makePdf(200, (page) => Array.from({ length: 50 }, (_, l) => Array.from({ length: 12 }, (_, w) => words[(page + l * 3 + w) % words.length]).join(' ')));
    const pdf = await PDFDocument.load(base);
    await pdf.attach(crypto.randomBytes(${mb} * 1024 * 1024), 'data.bin', { mimeType: 'application/octet-stream' });
    fs.writeFileSync(${JSON.stringify(file)}, await pdf.save({ useObjectStreams: false }));
  `;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (c) => (c === 0 ? resolve() : reject(new Error(`PDF generator exited ${c}`))));
  });
}

interface Phase {
  p99: number;
  max: number;
  ms: number;
  /** Main-thread CPU time between two ticks of a 5 ms timer: p99 and max (ms). */
  cpuP99: number;
  cpuMax: number;
  /** The timer's lateness less the time the thread waited for a CPU (the load): p99 and max (ms). */
  stallP99: number;
  stallMax: number;
  /** The main thread's longest collection (ms, kind) and each turn of over LONG_TURN_MS of CPU, explained. */
  gcMax: number;
  gcMaxKind: string;
  longTurns: string[];
}

/**
 * The main thread's scheduler counters (Linux: /proc schedstat, this thread only, in ms): time
 * on a CPU and time waiting for one. Null elsewhere.
 */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
function schedstat(): { cpu: number; queued: number } | null {
  try {
    const [cpu, queued] = fs.readFileSync(SCHEDSTAT, 'latin1').split(' ').map(Number);
    return { cpu: cpu / 1e6, queued: queued / 1e6 };
  } catch {
    return null;
  }
}

/**
 * The loop's delays without the machine's load. A 5 ms timer's lateness counts three things: the
 * synchronous work of the turn (CPU), what that work waited for without yielding (a lock, an
 * fsync), and the time the thread was ready but the OS ran other processes. The last one is the
 * load (on this shared machine, most of the wall-clock delay); the scheduler counts it, so it is
 * taken out here. `cpu` is the turn's CPU time alone. Linux only (zeros elsewhere).
 */
/** A turn whose CPU time passed LONG_TURN_MS: when it ended (performance.now()) and its CPU (ms). */
interface LongTurn {
  /** The tick before it and the tick that ended it (performance.now()). */
  from: number;
  at: number;
  cpu: number;
  /** CLOCK_MONOTONIC at its end (µs): the clock of a --cpu-prof profile's timestamps, to find the turn in one. */
  mono: number;
}
const LONG_TURN_MS = 20;

function loadFreeTurns(): { reset(): void; stop(): void; stall: Stats; cpu: Stats; long: LongTurn[] } {
  const stall: number[] = [];
  const cpu: number[] = [];
  const long: LongTurn[] = [];
  let lastWall = performance.now();
  let last = schedstat();
  const timer = setInterval(() => {
    const wall = performance.now();
    const now = schedstat();
    if (now && last) {
      cpu.push(now.cpu - last.cpu);
      if (now.cpu - last.cpu > LONG_TURN_MS) long.push({ from: lastWall, at: wall, cpu: now.cpu - last.cpu, mono: Number(process.hrtime.bigint() / 1000n) });
      stall.push(Math.max(0, wall - lastWall - 5 - (now.queued - last.queued)));
    }
    lastWall = wall;
    last = now;
  }, 5);
  return {
    reset() {
      stall.length = 0;
      cpu.length = 0;
      long.length = 0;
      lastWall = performance.now();
      last = schedstat();
    },
    stop: () => clearInterval(timer),
    stall: stats(stall),
    cpu: stats(cpu),
    long,
  };
}

/**
 * The main thread's garbage collections (perf_hooks 'gc' entries), so that a long turn can be
 * told apart: a collection's pause, or the platform's own synchronous work.
 */
interface Gc {
  start: number;
  ms: number;
  kind: string;
  forced: boolean;
}
function gcLog(): { list: Gc[]; stop(): void } {
  const list: Gc[] = [];
  const kinds: Record<number, string> = {
    [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const obs = new PerformanceObserver((entries) => {
    for (const e of entries.getEntries()) {
      const d = (e as PerformanceEntry & { detail: { kind: number; flags: number } }).detail;
      list.push({ start: e.startTime, ms: e.duration, kind: kinds[d.kind] ?? String(d.kind), forced: (d.flags & perfConstants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0 });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return { list, stop: () => obs.disconnect() };
}

/** Each long turn with the collections that ran inside it: "52.1 ms CPU at 76.9 s: gc major forced 49.3 ms". */
function explainLongTurns(long: LongTurn[], gcs: Gc[], from: number): string[] {
  return long.map((t) => {
    // The turn ran between the previous tick (5 ms timer) and `at`, plus its own length.
    const inside = gcs.filter((g) => g.start + g.ms <= t.at + 1 && g.start >= t.from - 1);
    const gcMs = inside.reduce((a, g) => a + g.ms, 0);
    const what = inside.length ? inside.map((g) => `gc ${g.kind}${g.forced ? ' forced' : ''} ${g.ms.toFixed(1)} ms`).join(', ') : 'no collection';
    return `${t.cpu.toFixed(1)} ms CPU at ${((t.at - from) / 1000).toFixed(1)} s, monotonic ${(t.mono / 1e6).toFixed(3)} s (${what}; other work ${Math.max(0, t.cpu - gcMs).toFixed(1)} ms)`;
  });
}

interface Stats {
  p99(): number;
  max(): number;
}
function stats(xs: number[]): Stats {
  const sorted = () => [...xs].sort((a, b) => a - b);
  return {
    p99: () => {
      const s = sorted();
      return s.length ? s[Math.min(s.length - 1, Math.ceil(0.99 * s.length) - 1)] : 0;
    },
    max: () => sorted().pop() ?? 0,
  };
}

async function measure(h: ReturnType<typeof monitorEventLoopDelay>, cpu: ReturnType<typeof loadFreeTurns>, gc: ReturnType<typeof gcLog>, fn: () => Promise<unknown>): Promise<Phase> {
  h.reset();
  cpu.reset();
  gc.list.length = 0;
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  // Let the loop run once more so a stall at the very end is recorded (and the last collections reported).
  await new Promise((r) => setTimeout(r, 20));
  const biggest = gc.list.reduce<Gc | null>((a, g) => (!a || g.ms > a.ms ? g : a), null);
  return {
    p99: h.percentile(99) / 1e6,
    max: h.max / 1e6,
    ms,
    cpuP99: cpu.cpu.p99(),
    cpuMax: cpu.cpu.max(),
    stallP99: cpu.stall.p99(),
    stallMax: cpu.stall.max(),
    gcMax: biggest?.ms ?? 0,
    gcMaxKind: biggest ? `${biggest.kind}${biggest.forced ? ' forced' : ''}` : 'none',
    longTurns: explainLongTurns(cpu.long, gc.list, t),
  };
}

async function until(cond: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const part: BenchPart = {
  name: 'eventloop',
  async run() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-eventloop-'));
    const f: Figures = {};
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const cpu = loadFreeTurns();
    const gc = gcLog();
    const record = (name: string, ph: Phase) => {
      f[`${name} p99 ms`] = ph.p99;
      f[`${name} max ms`] = ph.max;
      f[`${name} wall s`] = ph.ms / 1000;
      f[`${name} within targets (p99 <= 20, max <= 50)`] = ph.p99 <= 20 && ph.max <= 50;
      f[`${name} without load p99 ms`] = ph.stallP99;
      f[`${name} without load max ms`] = ph.stallMax;
      f[`${name} CPU per turn p99 ms`] = ph.cpuP99;
      f[`${name} CPU per turn max ms`] = ph.cpuMax;
      f[`${name} longest collection ms`] = ph.gcMax;
      f[`${name} longest collection kind`] = ph.gcMaxKind;
      f[`${name} turns over ${LONG_TURN_MS} ms CPU`] = ph.longTurns.join('; ') || 'none';
      process.stderr.write(
        `  eventloop: ${name}: p99 ${ph.p99.toFixed(1)} ms, max ${ph.max.toFixed(1)} ms, ${(ph.ms / 1000).toFixed(1)} s; ` +
          `without load p99 ${ph.stallP99.toFixed(1)} ms, max ${ph.stallMax.toFixed(1)} ms; CPU per turn p99 ${ph.cpuP99.toFixed(1)} ms, max ${ph.cpuMax.toFixed(1)} ms\n`,
      );
    };
    const fake = await startFakeOpenAI({ reply: 'Bees like lavender and thyme; plant both near the hive.' });
    const rx = await startReceiver();
    let p: Platform | null = null;
    let server: RunningServer | null = null;
    try {
      // The bench's own HTTP client (undici) loads on its first use: not the platform's cost.
      await rx.count();
      record('idle baseline (1 s)', await measure(h, cpu, gc, () => new Promise((r) => setTimeout(r, 1000))));

      // Inputs are made before any measured phase (generation would stall the loop itself).
      const pdfFile = path.join(dir, 'hundred.pdf');
      if (PHASES.has('pdf')) {
        await bigPdf(pdfFile, 100);
        f['pdf size MB'] = fs.statSync(pdfFile).size / MB;
      }
      const small = path.join(dir, 'small');
      fs.mkdirSync(small);
      const files = Array.from({ length: PHASES.has('files') ? FILES : 0 }, (_, i) => {
        const file = path.join(small, `note-${i}.txt`);
        fs.writeFileSync(file, `Note ${i}. `.repeat(200 + (i % 50) * 20));
        return file;
      });

      record(
        'start-up',
        await measure(h, cpu, gc, async () => {
          p = await startPlatform({
            dataDir: path.join(dir, 'data'),
            envApiKey: KEY,
            logger: createLogger('silent'),
            env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_LOG_LEVEL: 'silent' },
          });
          server = await listen(p, { port: 0 });
          // Start-up ends when the tokenizer's tables are built (in slices on this thread).
          await tokenCounter();
        }),
      );
      const platform = p as unknown as Platform;
      const url = (server as unknown as RunningServer).url;
      const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

      if (PHASES.has('execution')) record(
        'first execution',
        await measure(h, cpu, gc, async () => {
          const res = await fetch(`${url}/api/agents/1/execute`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ model: 'gpt-4o-mini', tools: 'no-tools', temperature: '0.5', messages: [{ role: 'user', content: 'What do bees like?' }], wait_execution: true }),
          });
          const j = (await res.json()) as { responses?: { status: string }[] };
          if (j.responses?.[0]?.status !== 'succeeded') throw new Error(`execution: ${JSON.stringify(j).slice(0, 300)}`);
        }),
      );

      if (PHASES.has('pdf')) {
        let pdfResult: { done: number; failed: string[] } = { done: 0, failed: [] };
        const client = await spawnClient(url, [pdfFile], 1);
        record('100 MB PDF upload and processing', await measure(h, cpu, gc, async () => (pdfResult = await client.go())));
        f['100 MB PDF processing failures'] = pdfResult.failed.join('; ') || 'none';
      }

      if (PHASES.has('webhooks')) platform.services.webhooks.create(1, '1', { url: `${rx.url}/hook`, method: 'POST' });
      const before = await rx.count();
      if (PHASES.has('webhooks')) record(
        '1,000-delivery webhook burst',
        await measure(h, cpu, gc, async () => {
          // Executions finishing back to back: 20 per tick, each tick's fan-out in one transaction.
          for (let batch = 0; batch < 50; batch++) {
            platform.db.transaction(() => {
            for (let i = batch * 20; i < batch * 20 + 20; i++) {
              platform.events.emit('execution.finished', {
                type: 'execution.succeeded',
                userId: 1,
                agentId: 1,
                execution: { id: 10_000 + i, status: 'succeeded', input: 'q', output: 'a', error: null, credits: 0.01, root_id: 10_000 + i, created_at: '2026-11-23T00:00:00.000000Z', updated_at: '2026-11-23T00:00:01.000000Z', template_id: 1 },
              } as never);
            }
            })();
            await new Promise((r) => setImmediate(r));
          }
          await until(async () => (await rx.count()) >= before + 1000, 120_000, 'the 1,000 deliveries');
        }),
      );

      if (PHASES.has('files')) {
        let imported: { done: number; failed: string[] } = { done: 0, failed: [] };
        const client = await spawnClient(url, files, 8);
        record(`${FILES} files uploaded and processed`, await measure(h, cpu, gc, async () => (imported = await client.go())));
        f[`${FILES} files failures`] = imported.failed.length;
      }
      return f;
    } finally {
      h.disable();
      cpu.stop();
      gc.stop();
      if (server) await (server as RunningServer).close();
      else if (p) await (p as Platform).close();
      await fake.close();
      rx.child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
export default part;
