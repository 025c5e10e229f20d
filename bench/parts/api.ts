/**
 * API bench: throughput of GET /api/agents/{id} over real HTTP as a ratio of a bare
 * Hono JSON handler served the same way in the same run (target >= 0.8 per CPU-second), and the latency of
 * GET /api/memories?per_page=50 with 100,000 memories stored (target p99 <= 5 ms).
 *
 * Servers run in this process; the load comes from autocannon in its own process, so the
 * client does not share the servers' event loop.
 */
import { spawn } from 'node:child_process';
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
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
      // Warm both (JIT, statement caches), then alternate short rounds so that the load of a
      // shared machine hits both alike. Two figures: requests per wall second, and requests per
      // CPU second of this process (the servers' own cost, which other processes on the
      // machine barely disturb). Each is the median of the per-round ratios.
      await load(`${bare.url}/api/agents/1`, { connections: conns, seconds: 2 });
      await load(`${running.url}/api/agents/1`, { connections: conns, seconds: 2, headers: auth });
      const rounds: { bare: Measured; api: Measured }[] = [];
      for (let round = 0; round < 6; round++) {
        const b = await measured(() => load(`${bare.url}/api/agents/1`, { connections: conns, seconds: 2 }));
        const a = await measured(() => load(`${running.url}/api/agents/1`, { connections: conns, seconds: 2, headers: auth }));
        rounds.push({ bare: b, api: a });
      }
      const wallRatios = rounds.map((r) => r.api.rps / r.bare.rps);
      const cpuRatios = rounds.map((r) => r.bare.cpuUsPerReq / r.api.cpuUsPerReq);
      await bare.close();

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
        'agents_get.bare_hono_rps': Math.round(median(rounds.map((r) => r.bare.rps))),
        'agents_get.platform_rps': Math.round(median(rounds.map((r) => r.api.rps))),
        'agents_get.ratio_wall_rps': median(wallRatios),
        'agents_get.ratio_wall_rps_range': `${Math.min(...wallRatios).toFixed(2)}..${Math.max(...wallRatios).toFixed(2)}`,
        'agents_get.bare_cpu_us_per_req': Math.round(median(rounds.map((r) => r.bare.cpuUsPerReq))),
        'agents_get.platform_cpu_us_per_req': Math.round(median(rounds.map((r) => r.api.cpuUsPerReq))),
        'agents_get.ratio_per_cpu_second (target >= 0.8)': median(cpuRatios),
        'agents_get.ratio_per_cpu_second_range': `${Math.min(...cpuRatios).toFixed(2)}..${Math.max(...cpuRatios).toFixed(2)}`,
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
