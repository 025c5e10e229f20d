/**
 * The soak, shared by the bounded CI profile (test/load) and the full bench (bench/parts/load.ts):
 * the real server as a child process on loopback, N concurrent SSE executions against the fake
 * provider (each replaced as soon as it ends) plus mixed CRUD workers, for a fixed time, in
 * rounds. Measures errors, lost events, latency percentiles and the RSS of the server with its child processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { tempDir } from '../api/helpers.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { startServer } from '../api/server-process.js';
import { readSSE } from '../fixtures/sse-reader.js';
import { until } from '../fixtures/until.js';
import { schedTimes, treePss, treeRss, treeRssByRole, type ProcessRole } from './proc-tree.js';

export interface SoakOptions {
  /** Work time of one round. */
  durationMs: number;
  rounds: number;
  /** SSE executions kept open at once. */
  streams: number;
  crudWorkers: number;
  tokens: number;
  tokenDelayMs: number;
  /** Idle time before an RSS reading, so the server can finish and collect. */
  settleMs: number;
  /** When set, RSS is read once more this long after the last round settled (the memory that stays). */
  quietMs?: number;
  /** When set, the whole timeline (the soak's 200 ms samples and what the server's probe wrote) is written there as JSON lines. */
  traceFile?: string;
}

export type SoakFigures = Record<string, number>;

const KEY = 'load-key-0123456789abcdef';

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const mb = (b: number | null | undefined) => (b === null || b === undefined ? -1 : Math.round((b / (1024 * 1024)) * 10) / 10);
const ms1 = (v: number) => Math.round(v * 10) / 10;
/** Epoch milliseconds with sub-millisecond precision, comparable with the server probe's times. */
const now = () => performance.timeOrigin + performance.now();
/** A CRUD request counts as not starved when the server's event loop waited for a CPU for at most this share of its time. */
const UNSTARVED_WAIT_SHARE = 0.1;
const PROBE = path.join(import.meta.dirname, 'server-probe.mjs');

/** What the server's probe (server-probe.mjs) writes: a 200 ms tick, or one answered request. */
interface ProbeTick {
  t: number;
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  heapPhysical: number;
  malloced: number;
  spaces: Record<string, [used: number, size: number, physical: number]>;
  elu: number;
  delays: number[];
  /** Collections in the tick: [count, pause ms], full (mark-compact) and young (scavenge). */
  gc: { major: [number, number]; minor: [number, number] };
}
interface ProbeRequest {
  req: 1;
  t0: number;
  ms: number;
  m: string;
  u: string;
  s: number;
}
/** One 200 ms reading by the soak: RSS per process role, and the server's main thread's scheduler times. */
interface Sample {
  t: number;
  total: number;
  by: Partial<Record<ProcessRole, number>>;
  sched: { runMs: number; waitMs: number } | null;
}

export async function runSoak(opts: SoakOptions): Promise<SoakFigures> {
  const reply = Array.from({ length: opts.tokens }, (_, i) => `t${i}`).join(' ');
  const fake = await startFakeOpenAI({ reply, delayMs: opts.tokenDelayMs });
  const dataDir = tempDir('agent-desk-load-');
  const probeFile = path.join(tempDir('agent-desk-load-probe-'), 'probe.jsonl');
  const server = await startServer({
    dataDir,
    env: { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_LOG_LEVEL: 'error', LOAD_PROBE_FILE: probeFile },
    // LOAD_SERVER_NODE_OPTIONS: more node options for the server alone (--cpu-prof, a V8 flag to try).
    execArgv: ['--import', pathToFileURL(PROBE).href, ...(process.env.LOAD_SERVER_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)],
  });
  const f = {
    streams_completed: 0,
    streams_concurrent_max: 0,
    stream_events: 0,
    stream_errors: 0,
    lost_events: 0,
    stored_mismatches: 0,
    crud_requests: 0,
    crud_errors: 0,
  };
  const firstEvent: number[] = [];
  /** Time to the first event that carries text (the run's set-up and the model's first token behind it). */
  const firstText: number[] = [];
  const streamTotal: number[] = [];
  const crudLatency: number[] = [];
  /** Each CRUD request's start and end (epoch ms), to match with the server's scheduler times. */
  const crudSpans: { t0: number; t1: number }[] = [];
  const executionIds: number[] = [];
  const errors: string[] = [];
  const note = (e: string) => errors.length < 10 && errors.push(e);
  /** An error's message with its cause's code (fetch says only 'fetch failed': the cause tells a refused or timed-out connection). */
  const why = (err: unknown) => {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `${(err as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
  };
  let open = 0;
  // Node's fetch keeps connections alive and sets no per-origin limit: one socket per open stream.
  const req = (url: string, init: RequestInit = {}) => fetch(`${server.url}${url}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } });

  async function oneStream(): Promise<void> {
    const t0 = performance.now();
    open++;
    f.streams_concurrent_max = Math.max(f.streams_concurrent_max, open);
    try {
      const res = await req('/api/agents/1/execute', {
        method: 'POST',
        body: JSON.stringify({ stream: true, temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools', messages: [{ role: 'user', content: 'load' }] }),
      });
      if (res.status !== 200) throw new Error(`execute answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      let text = '';
      let last: any = null;
      let first = true;
      let noText = true;
      await readSSE(
        res,
        (data) => {
          const ev = JSON.parse(data);
          if (first) {
            firstEvent.push(performance.now() - t0);
            executionIds.push(ev.id);
            first = false;
          }
          f.stream_events++;
          if (noText && ev.output) {
            firstText.push(performance.now() - t0);
            noText = false;
          }
          if (ev.status === 'running') text += ev.output;
          last = ev;
        },
        { strict: true },
      );
      if (last?.status !== 'completed') throw new Error(`stream ended on ${JSON.stringify(last)?.slice(0, 200)}`);
      if (text !== reply) f.lost_events++;
      f.streams_completed++;
      streamTotal.push(performance.now() - t0);
    } catch (err) {
      f.stream_errors++;
      note(`stream: ${why(err)}`);
    } finally {
      open--;
    }
  }

  async function timed(method: string, url: string, body?: unknown, expect = 200): Promise<any> {
    const t0 = now();
    f.crud_requests++;
    try {
      const res = await req(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await res.json();
      const t1 = now();
      crudLatency.push(t1 - t0);
      crudSpans.push({ t0, t1 });
      if (res.status !== expect) {
        f.crud_errors++;
        note(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
      }
      return json;
    } catch (err) {
      f.crud_errors++;
      note(`${method} ${url}: ${why(err)}`);
      return null;
    }
  }

  /** Create, read, list, update, delete: the table stays the same size, so RSS has no reason to grow. */
  async function crudCycle(n: number): Promise<void> {
    const made = await timed('POST', '/api/memories', { memory: `load memory ${n} ${'m'.repeat(n % 500)}` });
    await timed('GET', '/api/memories?per_page=20');
    await timed('GET', `/api/agents?page=1&q=${n % 2 ? 'chat' : 'x'}`);
    await timed('GET', '/api/memory-collections');
    if (made?.memory?.id) {
      await timed('PATCH', `/api/memories/${made.memory.id}`, { memory: `updated ${n}` });
      await timed('DELETE', `/api/memories/${made.memory.id}`);
    }
    if (executionIds.length) await timed('GET', `/api/agent-responses/${executionIds[n % executionIds.length]}`);
  }

  async function round(durationMs: number): Promise<void> {
    const end = Date.now() + durationMs;
    const streamSlots = Array.from({ length: opts.streams }, async () => {
      while (Date.now() < end) await oneStream();
    });
    let n = 0;
    const crud = Array.from({ length: opts.crudWorkers }, async () => {
      while (Date.now() < end) await crudCycle(n++);
    });
    await Promise.all([...streamSlots, ...crud]);
  }

  async function settle(): Promise<number | null> {
    // Wait for stored executions to be final (a condition: on loaded cores the last ones take long), then idle, then read RSS.
    const dbFile = path.join(dataDir, 'agent-desk.sqlite');
    await until('stored executions to be final', () => {
      const db = new Database(dbFile, { readonly: true });
      try {
        return (db.prepare("SELECT count(*) AS n FROM executions WHERE status IN ('starting','running')").get() as { n: number }).n === 0;
      } finally {
        db.close();
      }
    }, 60_000, 100);
    await new Promise((r) => setTimeout(r, opts.settleMs));
    settledPss.push(treePss(server.pid));
    return rss();
  }

  // The server with its child processes (the embedder, readers): what it holds in all.
  const rss = () => treeRss(server.pid);
  /** Every 200 ms: RSS per process, and the server's main-thread scheduler times (see schedTimes). */
  const samples: Sample[] = [];
  const sample = () => {
    const by = treeRssByRole(server.pid);
    samples.push({ t: now(), total: Object.values(by).reduce((a, b) => a + b, 0), by, sched: schedTimes(server.pid) });
  };
  /** PSS at each settled reading (pages shared by the server's processes counted once). */
  const settledPss: (number | null)[] = [];
  const sampler = setInterval(sample, 200);
  /** The work rounds' spans (epoch ms): latency and event-loop figures count only these. */
  const windows: { t0: number; t1: number }[] = [];
  const out: SoakFigures = {};
  try {
    // Warm-up: one of each, so the baseline includes loaded code, prepared statements and pools.
    await oneStream();
    await crudCycle(0);
    crudLatency.length = 0;
    crudSpans.length = 0;
    const baseline = await settle();
    const afterRounds: (number | null)[] = [];
    let workMs = 0;
    let cpu = 0;
    let clientCpu = 0;
    let waitMs = 0;
    // The load generator's own event loop (the 200 readers, the CRUD workers and the fake provider
    // share it): a request it was late to send or to read counts in the CRUD latency too.
    const clientDelay = monitorEventLoopDelay({ resolution: 10 });
    for (let r = 0; r < opts.rounds; r++) {
      const t0 = now();
      clientDelay.enable();
      const c0 = server.cpuSeconds() ?? 0;
      const s0 = schedTimes(server.pid);
      const u0 = process.cpuUsage();
      await round(opts.durationMs);
      clientDelay.disable();
      const u = process.cpuUsage(u0);
      const s1 = schedTimes(server.pid);
      clientCpu += (u.user + u.system) / 1e6;
      windows.push({ t0, t1: now() });
      workMs += now() - t0;
      cpu += (server.cpuSeconds() ?? 0) - c0;
      if (s0 && s1) waitMs += s1.waitMs - s0.waitMs;
      afterRounds.push(await settle());
    }
    // The memory that stays: read again after a quiet spell (idle workers end, the heap shrinks).
    let quiet: number | null = null;
    let quietAlone: number | null = null;
    let quietPss: number | null = null;
    if (opts.quietMs) {
      await new Promise((r) => setTimeout(r, opts.quietMs));
      quiet = rss();
      quietAlone = server.rss();
      quietPss = treePss(server.pid);
    }
    clearInterval(sampler);
    // Every stream's stored record holds the whole text too (nothing lost between stream and store).
    const db = new Database(path.join(dataDir, 'agent-desk.sqlite'), { readonly: true });
    try {
      const get = db.prepare<[number], { status: string; output: string }>('SELECT status, output FROM executions WHERE id = ?');
      for (const id of executionIds) {
        const row = get.get(id);
        if (!row || row.status !== 'succeeded' || row.output !== reply) f.stored_mismatches++;
      }
    } finally {
      db.close();
    }
    const probe = readProbe(probeFile);
    if (opts.traceFile) fs.writeFileSync(opts.traceFile, [...samples.map((s) => JSON.stringify({ sample: 1, ...s })), ...fs.readFileSync(probeFile, 'utf8').trimEnd().split('\n')].join('\n') + '\n');
    const inRounds = (t: number) => windows.some((w) => t >= w.t0 && t <= w.t1);
    crudLatency.sort((a, b) => a - b);
    firstEvent.sort((a, b) => a - b);
    firstText.sort((a, b) => a - b);
    streamTotal.sort((a, b) => a - b);
    // The peak, and what each process and the server's heap held at that moment.
    const peak = samples.reduce<Sample | null>((a, s) => (!a || s.total > a.total ? s : a), null);
    const atPeak = peak ? nearest(probe.ticks, peak.t) : null;
    const maxOf = (role: ProcessRole) => Math.max(0, ...samples.map((s) => s.by[role] ?? 0));
    // Inside the server during the rounds: event-loop delay, busy share, server-side CRUD time.
    const roundTicks = probe.ticks.filter((k) => inRounds(k.t));
    const delays = roundTicks.flatMap((k) => k.delays).sort((a, b) => a - b);
    const gcSum = (kind: 'major' | 'minor', i: 0 | 1) => roundTicks.reduce((a, k) => a + (k.gc?.[kind][i] ?? 0), 0);
    const serverCrud = probe.requests
      .filter((r) => inRounds(r.t0) && !r.u.endsWith('/execute'))
      .map((r) => r.ms)
      .sort((a, b) => a - b);
    const unstarved = crudSpans
      .filter((s) => inRounds(s.t0))
      .filter((s) => {
        const wait = waitBetween(samples, s.t0, s.t1);
        return wait !== null && wait <= UNSTARVED_WAIT_SHARE * (s.t1 - s.t0);
      })
      .map((s) => s.t1 - s.t0)
      .sort((a, b) => a - b);
    Object.assign(out, f, {
      streams_target: opts.streams,
      work_seconds: Math.round(workMs / 100) / 10,
      server_cpu_percent: Math.round((cpu / (workMs / 1000)) * 100),
      // CPU the server spent per request answered (streams and CRUD): its cost, whatever share of the machine it got.
      server_cpu_ms_per_request: ms1((cpu * 1000) / Math.max(1, f.streams_completed + f.crud_requests)),
      // The share of the rounds the server's event loop was ready to run but the machine gave the CPU to another process.
      server_cpu_wait_percent: Math.round((waitMs / workMs) * 100),
      // The load generator and the fake provider share one process: its CPU shows whether it, not the server, was the limit.
      client_cpu_percent: Math.round((clientCpu / (workMs / 1000)) * 100),
      // Other work on the machine skews every latency figure; recorded so a reader can tell.
      machine_load_avg_1m: Math.round(os.loadavg()[0] * 10) / 10,
      machine_cpus: os.cpus().length,
      stream_first_event_p50_ms: Math.round(percentile(firstEvent, 50)),
      stream_first_event_p99_ms: Math.round(percentile(firstEvent, 99)),
      stream_first_text_p50_ms: Math.round(percentile(firstText, 50)),
      stream_first_text_p99_ms: Math.round(percentile(firstText, 99)),
      stream_duration_p99_ms: Math.round(percentile(streamTotal, 99)),
      stream_events_per_s: Math.round(f.stream_events / (workMs / 1000)),
      crud_per_s: Math.round(f.crud_requests / (workMs / 1000)),
      crud_p50_ms: ms1(percentile(crudLatency, 50)),
      crud_p99_ms: ms1(percentile(crudLatency, 99)),
      // Client-side latency of the CRUD requests during which the server waited for a CPU at most 10 % of the time.
      crud_unstarved_count: unstarved.length,
      crud_unstarved_p99_ms: unstarved.length ? ms1(percentile(unstarved, 99)) : -1,
      // From the request's arrival in the server to the end of its answer (the probe inside the server).
      crud_server_p50_ms: ms1(percentile(serverCrud, 50)),
      crud_server_p99_ms: ms1(percentile(serverCrud, 99)),
      // How late the load generator's own 10 ms timer fired during the rounds (the part of a CRUD latency that is the client's).
      client_event_loop_delay_p50_ms: ms1(clientDelay.percentile(50) / 1e6 - 10),
      client_event_loop_delay_p99_ms: ms1(clientDelay.percentile(99) / 1e6 - 10),
      server_event_loop_delay_p50_ms: ms1(percentile(delays, 50)),
      server_event_loop_delay_p99_ms: ms1(percentile(delays, 99)),
      server_event_loop_delay_max_ms: ms1(delays.at(-1) ?? 0),
      // Its garbage collections during the rounds: how many full ones, and the share of the time the main thread stood still for any.
      server_gc_full_count: gcSum('major', 0),
      server_gc_young_count: gcSum('minor', 0),
      server_gc_pause_percent: Math.round(((gcSum('major', 1) + gcSum('minor', 1)) / workMs) * 1000) / 10,
      server_event_loop_busy_percent: roundTicks.length ? Math.round((roundTicks.reduce((a, k) => a + k.elu, 0) / roundTicks.length) * 100) : -1,
      rss_baseline_mb: mb(baseline),
      rss_peak_mb: mb(peak?.total ?? 0),
      rss_peak_server_mb: mb(peak?.by.server ?? 0),
      rss_peak_embedder_mb: mb(peak?.by.embedder ?? 0),
      rss_peak_other_mb: mb(peak?.by.other ?? 0),
      rss_server_max_mb: mb(maxOf('server')),
      rss_embedder_max_mb: mb(maxOf('embedder')),
      // The server's heap at the peak (the probe's reading nearest to it): objects in use, what V8 reserved for them, memory outside the heap.
      heap_used_at_peak_mb: mb(atPeak?.heapUsed),
      heap_total_at_peak_mb: mb(atPeak?.heapTotal),
      heap_new_space_at_peak_mb: mb(atPeak?.spaces.new_space?.[1]),
      external_at_peak_mb: mb(atPeak?.external),
      heap_used_max_mb: mb(Math.max(0, ...probe.ticks.map((k) => k.heapUsed))),
      heap_total_max_mb: mb(Math.max(0, ...probe.ticks.map((k) => k.heapTotal))),
      pss_settled_max_mb: mb(Math.max(0, ...settledPss.map((p) => p ?? 0))),
      ...Object.fromEntries(afterRounds.map((r, i) => [`rss_after_round${i + 1}_mb`, mb(r)])),
      ...(opts.quietMs ? { [`rss_${Math.round(opts.quietMs / 1000)}s_after_mb`]: mb(quiet), [`rss_server_alone_${Math.round(opts.quietMs / 1000)}s_after_mb`]: mb(quietAlone), [`pss_${Math.round(opts.quietMs / 1000)}s_after_mb`]: mb(quietPss) } : {}),
      rss_after_over_baseline: baseline && afterRounds.at(-1) ? Math.round((afterRounds.at(-1)! / baseline) * 100) / 100 : -1,
      rss_last_over_first_round: afterRounds.length > 1 && afterRounds[0] && afterRounds.at(-1) ? Math.round((afterRounds.at(-1)! / afterRounds[0]) * 100) / 100 : -1,
    });
    if (errors.length) (out as any).first_errors = errors.join(' | ') as unknown as number;
    return out;
  } finally {
    clearInterval(sampler);
    await server.stop();
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(probeFile), { recursive: true, force: true });
  }
}

/** The probe's lines, split into its ticks and its requests. */
function readProbe(file: string): { ticks: ProbeTick[]; requests: ProbeRequest[] } {
  const ticks: ProbeTick[] = [];
  const requests: ProbeRequest[] = [];
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (!line) continue;
    const v = JSON.parse(line);
    if (v.req) requests.push(v);
    else if (v.t && !v.thread) ticks.push(v);
  }
  return { ticks, requests };
}

function nearest<T extends { t: number }>(list: T[], t: number): T | null {
  return list.reduce<T | null>((a, k) => (!a || Math.abs(k.t - t) < Math.abs(a.t - t) ? k : a), null);
}

/** How long the server's main thread waited for a CPU between two times (ms), interpolated between the 200 ms samples; null outside them. */
function waitBetween(samples: Sample[], t0: number, t1: number): number | null {
  const at = (t: number): number | null => {
    const i = samples.findIndex((s) => s.t >= t);
    if (i <= 0) return null;
    const a = samples[i - 1];
    const b = samples[i];
    if (!a.sched || !b.sched) return null;
    return a.sched.waitMs + ((b.sched.waitMs - a.sched.waitMs) * (t - a.t)) / (b.t - a.t);
  };
  const w0 = at(t0);
  const w1 = at(t1);
  return w0 === null || w1 === null ? null : w1 - w0;
}
