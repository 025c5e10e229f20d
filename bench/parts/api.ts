/**
 * API bench: the cost of GET /api/agents/{id} over real HTTP, every middleware and the validation
 * included, as a ratio of a bare Hono JSON handler served by the same adapter in the same run
 * (target >= 0.8 per CPU-second), and the latency of GET /api/memories?per_page=50 with 100,000
 * memories stored (target p99 <= 5 ms).
 *
 * Servers run in this process; the load comes from another process (autocannon, or the paced
 * client), so the client does not share the servers' event loop. The target is read at a paced
 * rate both servers are given alike; the saturated figures are reported beside it.
 * BENCH_API_AGENTS_ONLY=1 skips the memories part.
 */
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatform } from '../../src-main/platform/platform.js';
import { listen } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { nowMicros } from '../../src-main/platform/kernel/time.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AUTOCANNON = path.join(ROOT, 'node_modules/.bin/autocannon');
const KEY = 'bench-key-0123456789abcdef';
const MEMORIES = 100_000;
const PACED_CLIENT = path.join(ROOT, 'bench/helpers/paced-load.mjs');
/**
 * The paced rounds' rate (requests per second), the same in every run: the ratio depends on the
 * rate (the fewer requests per turn of the loop, the more of each request's cost both servers
 * share), so a rate taken from a run's saturated figures would move the ratio with the machine's load.
 */
const PACED_RATE = Number(process.env.BENCH_API_RATE ?? 3000);
/** Many short rounds: each pair of rounds sees the machine alike, and the median of many pairs is steady. */
const PACED_ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 20);
const PACED_SECONDS = Number(process.env.BENCH_API_ROUND_SECONDS ?? 0.5);
/** Pairs of saturated rounds (0 leaves them out, for a quicker comparison of the paced figure alone). */
const SATURATED_ROUNDS = Number(process.env.BENCH_API_SATURATED_ROUNDS ?? 6);

interface Load {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}

/** One autocannon run against `url` in a child process; throws unless every answer was 2xx. */
function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<Load> {
  const args = ['-j', '-n', '-c', String(opts.connections), '-d', String(opts.seconds)];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(AUTOCANNON, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out) as Load;
      if (r.non2xx || r.errors || !r.requests.total) return reject(new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.requests.total} requests`));
      resolve(r);
    });
  });
}

function serveBare(app: Hono): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
    server.keepAliveTimeout = 5_000;
    server.once('listening', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
      });
    });
  });
}

interface Measured {
  rps: number;
  cpuUsPerReq: number;
}

/** A load run with the CPU time this process (the server under load) spent on it. */
async function measured(run: () => Promise<Load>): Promise<Measured> {
  const cpu0 = process.cpuUsage();
  const r = await run();
  const cpu = process.cpuUsage(cpu0);
  return { rps: r.requests.average, cpuUsPerReq: (cpu.user + cpu.system) / r.requests.total };
}

interface PacedMeasured {
  cpuUsPerReq: number;
  p99Ms: number;
  /** The round took over 1.2 times its length (a loaded machine's stall, or a server falling behind). */
  behind: boolean;
}

interface PacedRun {
  sent: number;
  done: number;
  non2xx: number;
  errors: number;
  late: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  error?: string;
}

/**
 * The paced client in its own process, kept for every round (warm, no start-up per round). A
 * round's CPU is this process's (the servers') from the order to the last answer.
 */
function pacedClient() {
  const child = fork(PACED_CLIENT, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    async measure(order: { url: string; headers?: Record<string, string>; rate: number; seconds: number; connections: number }): Promise<PacedMeasured> {
      const cpu0 = process.cpuUsage();
      const r = await new Promise<PacedRun>((resolve, reject) => {
        child.once('message', (m) => resolve(m as PacedRun));
        child.once('exit', (code) => reject(new Error(`paced client exited ${code}`)));
        child.send(order);
      });
      const cpu = process.cpuUsage(cpu0);
      child.removeAllListeners('exit');
      if (r.error) throw new Error(`paced client: ${r.error}`);
      // Every request answered 2xx.
      if (r.non2xx || r.errors || r.done !== r.sent) throw new Error(`${order.url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.done}/${r.sent} answered`);
      // A round far longer than asked: the server could not keep up (it would be measured saturated).
      if (r.seconds > order.seconds * 3) throw new Error(`${order.url}: ${r.done} requests at ${order.rate}/s took ${r.seconds.toFixed(2)} s: lower BENCH_API_RATE`);
      return { cpuUsPerReq: (cpu.user + cpu.system) / r.done, p99Ms: r.p99Ms, behind: r.seconds > order.seconds * 1.2 };
    },
    close: () => child.kill(),
  };
}

const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** The middle value (the mean of the two middle ones for an even count). */
const median = (xs: number[]) => {
  const s = sortedOf(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** How far the rounds' figures spread: lowest..highest, and the middle half's range. */
const spread = (xs: number[]) => {
  const s = sortedOf(xs);
  const at = (q: number) => s[Math.round(q * (s.length - 1))].toFixed(2);
  return `${at(0)}..${at(1)} (middle half ${at(0.25)}..${at(0.75)}, n=${s.length})`;
};
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `n` requests one after another on one keep-alive connection; latency percentiles in ms. */
async function sequential(url: string, headers: Record<string, string>, n: number): Promise<{ p50: number; p99: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(url, { agent, headers }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          })
          .on('error', reject);
      });
      times.push(performance.now() - t0);
      if (status !== 200) throw new Error(`${url}: ${status}`);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return { p50: +quantile(times, 0.5).toFixed(3), p99: +quantile(times, 0.99).toFixed(3) };
}

/** 100,000 memories in one transaction, through the same triggers (FTS, counts) as the API. */
function seedMemories(db: ReturnType<typeof createPlatform>['db'], collectionId: number): void {
  const insert = db.prepare('INSERT INTO memories(user_id, collection_id, memory, credits, created_at, updated_at) VALUES (1, ?, ?, 0, ?, ?)');
  const words = ['project', 'meeting', 'prefers', 'metric', 'deadline', 'coffee', 'python', 'report', 'travel', 'budget', 'family', 'invoice'];
  db.transaction(() => {
    for (let i = 0; i < MEMORIES; i++) {
      const now = nowMicros();
      const text = `Memory ${i}: ${words[i % 12]} ${words[(i * 7) % 12]} ${words[(i * 5) % 12]} — a note of moderate length so pages weigh what real ones do.`;
      insert.run(collectionId, text, now, now);
    }
  })();
}

export default {
  name: 'api',
  async run(): Promise<Record<string, number | string>> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-api-'));
    const p = createPlatform({ dataDir: dir, envApiKey: KEY, logger: createLogger('silent') });
    const running = await listen(p, { port: 0 });
    const auth = { authorization: `Bearer ${KEY}` };
    try {
      // Baseline: a bare Hono app answering the very same agent JSON, served by the same adapter.
      const agentRes = await fetch(`${running.url}/api/agents/1`, { headers: auth });
      if (agentRes.status !== 200) throw new Error(`GET /api/agents/1: ${agentRes.status}`);
      const agent = await agentRes.json();
      const bareApp = new Hono();
      bareApp.get('/api/agents/:id', (c) => c.json(agent));
      const bare = await serveBare(bareApp);

      const conns = 16;
      const agentUrl = `${running.url}/api/agents/1`;
      const bareUrl = `${bare.url}/api/agents/1`;
      // Warm both (JIT, statement caches).
      await load(bareUrl, { connections: conns, seconds: 2 });
      await load(agentUrl, { connections: conns, seconds: 2, headers: auth });

      // Saturated: autocannon as fast as each server answers. CPU per request then depends on how
      // many requests each turn of the event loop takes (more per turn, cheaper each), which differs
      // between the two servers and from run to run: reported, but not the measure of the target.
      const saturated: { bare: Measured; api: Measured }[] = [];
      for (let round = 0; round < SATURATED_ROUNDS; round++) {
        // ABBA: the one that goes second (after the other's garbage and warmth) alternates.
        const pair = async (first: 'bare' | 'api') => {
          const b = () => measured(() => load(bareUrl, { connections: conns, seconds: 2 }));
          const a = () => measured(() => load(agentUrl, { connections: conns, seconds: 2, headers: auth }));
          if (first === 'bare') return { bare: await b(), api: await a() };
          const api = await a();
          return { bare: await b(), api };
        };
        saturated.push(await pair(round % 2 ? 'api' : 'bare'));
      }
      const satWall = saturated.map((r) => r.api.rps / r.bare.rps);
      const satCpu = saturated.map((r) => r.bare.cpuUsPerReq / r.api.cpuUsPerReq);

      // The measure: both servers offered the same paced rate, well below what either answers, by a
      // client that spaces its requests (paced-load.mjs): the same arrivals, so the same requests
      // per turn, and the CPU per request is what each server's code costs. Short rounds, ABBA.
      const rate = PACED_RATE;
      const client = pacedClient();
      const paced: { bare: PacedMeasured; api: PacedMeasured }[] = [];
      try {
        const b = () => client.measure({ url: bareUrl, rate, seconds: PACED_SECONDS, connections: conns });
        const a = () => client.measure({ url: agentUrl, headers: auth, rate, seconds: PACED_SECONDS, connections: conns });
        await b();
        await a();
        for (let round = 0; round < PACED_ROUNDS; round++) {
          if (round % 2 === 0) {
            const bare = await b();
            paced.push({ bare, api: await a() });
          } else {
            const api = await a();
            paced.push({ bare: await b(), api });
          }
        }
      } finally {
        client.close();
      }
      const pacedCpu = paced.map((r) => r.bare.cpuUsPerReq / r.api.cpuUsPerReq);
      await bare.close();

      const agentFigures = {
        'agents_get.paced.rate_rps': rate,
        'agents_get.paced.bare_cpu_us_per_req': +median(paced.map((r) => r.bare.cpuUsPerReq)).toFixed(1),
        'agents_get.paced.platform_cpu_us_per_req': +median(paced.map((r) => r.api.cpuUsPerReq)).toFixed(1),
        'agents_get.paced.ratio_per_cpu_second (target >= 0.8)': median(pacedCpu),
        'agents_get.paced.ratio_per_cpu_second_spread': spread(pacedCpu),
        'agents_get.paced.rounds_behind': paced.filter((r) => r.bare.behind || r.api.behind).length,
        'agents_get.paced.platform_p99_ms': median(paced.map((r) => r.api.p99Ms)),
        'agents_get.paced.bare_p99_ms': median(paced.map((r) => r.bare.p99Ms)),
        ...(saturated.length
          ? {
              'agents_get.saturated.bare_hono_rps': Math.round(median(saturated.map((r) => r.bare.rps))),
              'agents_get.saturated.platform_rps': Math.round(median(saturated.map((r) => r.api.rps))),
              'agents_get.saturated.ratio_wall_rps': median(satWall),
              'agents_get.saturated.ratio_wall_rps_spread': spread(satWall),
              'agents_get.saturated.bare_cpu_us_per_req': +median(saturated.map((r) => r.bare.cpuUsPerReq)).toFixed(1),
              'agents_get.saturated.platform_cpu_us_per_req': +median(saturated.map((r) => r.api.cpuUsPerReq)).toFixed(1),
              'agents_get.saturated.ratio_per_cpu_second': median(satCpu),
              'agents_get.saturated.ratio_per_cpu_second_spread': spread(satCpu),
            }
          : {}),
      };
      if (process.env.BENCH_API_AGENTS_ONLY === '1') return { ...agentFigures, 'machine.loadavg_1m': os.loadavg()[0] };

      // Memories: 100,000 rows, then sequential requests (one connection) for latency.
      const col = p.services.collections.defaultFor(1);
      const t0 = performance.now();
      seedMemories(p.db, col.id);
      const seedMs = performance.now() - t0;
      const check = (await (await fetch(`${running.url}/api/memories?per_page=50`, { headers: auth })).json()) as any;
      if (check.meta?.total !== MEMORIES || check.memories?.length !== 50) throw new Error(`memories list: ${JSON.stringify(check.meta)}`);
      // autocannon rounds latencies to whole milliseconds: time sequential requests here instead.
      await sequential(`${running.url}/api/memories?per_page=50`, auth, 300);
      const first = await sequential(`${running.url}/api/memories?per_page=50`, auth, 3000);
      const deep = await sequential(`${running.url}/api/memories?per_page=50&page=1000`, auth, 500);
      const last = await sequential(`${running.url}/api/memories?per_page=50&page=2000`, auth, 300);
      // The server's own CPU per list request (load from the other process, one connection).
      const listCpu = await measured(() => load(`${running.url}/api/memories?per_page=50`, { connections: 1, seconds: 3, headers: auth }));

      return {
        ...agentFigures,
        'machine.loadavg_1m': os.loadavg()[0],
        'memories_list.seed_100k_ms': Math.round(seedMs),
        'memories_list.page1.p50_ms': first.p50,
        'memories_list.page1.p99_ms (target <= 5)': first.p99,
        'memories_list.page1.server_cpu_us_per_req': Math.round(listCpu.cpuUsPerReq),
        'memories_list.page1000.p50_ms': deep.p50,
        'memories_list.page1000.p99_ms': deep.p99,
        'memories_list.page2000_last.p99_ms': last.p99,
      };
    } finally {
      await running.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
