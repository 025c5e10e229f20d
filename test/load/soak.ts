/**
 * The soak, shared by the bounded CI profile (test/load) and the full bench (bench/parts/load.ts):
 * the real server as a child process on loopback, N concurrent SSE executions against the fake
 * provider (each replaced as soon as it ends) plus mixed CRUD workers, for a fixed time, in
 * rounds. Measures errors, lost events, latency percentiles and the RSS of the server with its child processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../api/helpers.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { startServer } from '../crash/server-process.js';
import { readSSE } from '../fixtures/sse-reader.js';
import { until } from '../fixtures/until.js';
import { treePss, treeRss } from './proc-tree.js';

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
}

export type SoakFigures = Record<string, number>;

const KEY = 'load-key-0123456789abcdef';

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const mb = (b: number | null) => (b === null ? -1 : Math.round((b / (1024 * 1024)) * 10) / 10);

export async function runSoak(opts: SoakOptions): Promise<SoakFigures> {
  const reply = Array.from({ length: opts.tokens }, (_, i) => `t${i}`).join(' ');
  const fake = await startFakeOpenAI({ reply, delayMs: opts.tokenDelayMs });
  const dataDir = tempDir('agent-desk-load-');
  const server = await startServer(dataDir, { AGENT_DESK_API_KEY: KEY, AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_LOG_LEVEL: 'error' });
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
  const streamTotal: number[] = [];
  const crudLatency: number[] = [];
  const executionIds: number[] = [];
  const errors: string[] = [];
  const note = (e: string) => errors.length < 10 && errors.push(e);
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
      note(`stream: ${(err as Error).message}`);
    } finally {
      open--;
    }
  }

  async function timed(method: string, url: string, body?: unknown, expect = 200): Promise<any> {
    const t0 = performance.now();
    f.crud_requests++;
    try {
      const res = await req(url, { method, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = await res.json();
      crudLatency.push(performance.now() - t0);
      if (res.status !== expect) {
        f.crud_errors++;
        note(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
      }
      return json;
    } catch (err) {
      f.crud_errors++;
      note(`${method} ${url}: ${(err as Error).message}`);
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

  // The server with its child processes (the embedder, readers, the spawner): what it holds in all.
  const rss = () => treeRss(server.pid);
  let peak = 0;
  /** PSS at each settled reading (pages shared by the server's processes counted once). */
  const settledPss: (number | null)[] = [];
  const sampler = setInterval(() => (peak = Math.max(peak, rss() ?? 0)), 200);
  const out: SoakFigures = {};
  try {
    // Warm-up: one of each, so the baseline includes loaded code, prepared statements and pools.
    await oneStream();
    await crudCycle(0);
    const baseline = await settle();
    const afterRounds: (number | null)[] = [];
    let workMs = 0;
    let cpu = 0;
    let clientCpu = 0;
    for (let r = 0; r < opts.rounds; r++) {
      const t0 = Date.now();
      const c0 = server.cpuSeconds() ?? 0;
      const u0 = process.cpuUsage();
      await round(opts.durationMs);
      const u = process.cpuUsage(u0);
      clientCpu += (u.user + u.system) / 1e6;
      workMs += Date.now() - t0;
      cpu += (server.cpuSeconds() ?? 0) - c0;
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
    crudLatency.sort((a, b) => a - b);
    firstEvent.sort((a, b) => a - b);
    streamTotal.sort((a, b) => a - b);
    Object.assign(out, f, {
      streams_target: opts.streams,
      work_seconds: Math.round(workMs / 100) / 10,
      server_cpu_percent: Math.round((cpu / (workMs / 1000)) * 100),
      // The load generator and the fake provider share one process: its CPU shows whether it, not the server, was the limit.
      client_cpu_percent: Math.round((clientCpu / (workMs / 1000)) * 100),
      // Other work on the machine skews every latency figure; recorded so a reader can tell.
      machine_load_avg_1m: Math.round(os.loadavg()[0] * 10) / 10,
      machine_cpus: os.cpus().length,
      stream_first_event_p50_ms: Math.round(percentile(firstEvent, 50)),
      stream_first_event_p99_ms: Math.round(percentile(firstEvent, 99)),
      stream_duration_p99_ms: Math.round(percentile(streamTotal, 99)),
      stream_events_per_s: Math.round(f.stream_events / (workMs / 1000)),
      crud_per_s: Math.round(f.crud_requests / (workMs / 1000)),
      crud_p50_ms: Math.round(percentile(crudLatency, 50) * 10) / 10,
      crud_p99_ms: Math.round(percentile(crudLatency, 99) * 10) / 10,
      rss_baseline_mb: mb(baseline),
      rss_peak_mb: mb(peak),
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
  }
}
