/**
 * Webhook delivery bench.
 *
 * - throughput: deliveries per second to one webhook on a local receiver (target >= 500/s),
 *   and as a ratio of the same receiver's rate for bare signed POSTs at the same concurrency
 *   (no database, no queue) measured in the same run;
 * - latency: from an execution's end (the `execution.finished` emit) to its webhook's arrival
 *   at the receiver, one event at a time (target p99 <= 50 ms), beside the bare POST latency.
 *
 * The receiver runs in its own process (as n8n would), so it does not share the platform's event
 * loop; both sides stamp times with performance.timeOrigin + now(), the same wall clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPlatform, type Platform } from '../../src-main/platform/platform.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { signedHeaders, newMessageId } from '../../src-main/platform/modules/webhooks/signing.js';
import { PER_WEBHOOK_CONCURRENCY } from '../../src-main/platform/modules/webhooks/delivery.js';
import type { Figures } from '../run.js';

/** Events in the throughput backlog (env BENCH_WEBHOOK_EVENTS to change). */
const THROUGHPUT_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 3000);
const LATENCY_EVENTS = 300;
const LATENCY_GAP_MS = 5;

const RECEIVER = `
import http from 'node:http';
const arrivals = new Map();
const wall = () => performance.timeOrigin + performance.now();
const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.end(JSON.stringify(req.url === '/arrivals' ? { count: arrivals.size, arrivals: Object.fromEntries(arrivals) } : { count: arrivals.size }));
    return;
  }
  req.resume();
  req.on('end', () => {
    arrivals.set(req.headers['webhook-id'] + '|' + req.url, wall());
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
});
server.keepAliveTimeout = 10000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const wall = () => performance.timeOrigin + performance.now();

export async function startReceiver(): Promise<{ url: string; child: ChildProcess; count(): Promise<number>; arrivals(): Promise<Record<string, number>> }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (b: Buffer) => resolve(Number(b.toString().trim())));
    child.once('exit', (code) => reject(new Error(`receiver exited ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    count: async () => ((await (await fetch(`${url}/count`)).json()) as { count: number }).count,
    arrivals: async () => ((await (await fetch(`${url}/arrivals`)).json()) as { arrivals: Record<string, number> }).arrivals,
  };
}

async function waitCount(rx: { count(): Promise<number> }, n: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while ((await rx.count()) < n) {
    if (Date.now() > end) throw new Error(`receiver got ${await rx.count()} of ${n}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

const execution = (id: number) => ({
  id,
  status: 'succeeded',
  input: 'What do bees like? '.repeat(10),
  output: 'Bees like lavender. '.repeat(20),
  error: null,
  credits: 1.25,
  root_id: id,
  created_at: '2026-11-21T08:52:01.123456Z',
  updated_at: '2026-11-21T08:52:02.123456Z',
  template_id: 1,
});
const emit = (p: Platform, id: number) =>
  p.events.emit('execution.finished', { type: 'execution.succeeded', userId: 1, agentId: 1, execution: execution(id) });

/** Bare signed POSTs at the delivery's per-webhook concurrency: what the receiver and HTTP alone allow. */
async function bare(url: string, total: number, concurrency: number, gapMs = 0): Promise<{ perSecond: number; latencies: number[] }> {
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const body = JSON.stringify({ type: 'execution.succeeded', timestamp: '2026-11-21T08:52:02.123456Z', data: execution(1) });
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const a = performance.now();
        const res = await fetch(`${url}/bare`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signedHeaders(secret, newMessageId(), body) },
          body,
          redirect: 'manual',
        });
        await res.text();
        latencies.push(performance.now() - a);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    }),
  );
  return { perSecond: total / ((performance.now() - t0) / 1000), latencies };
}

export default {
  name: 'webhooks',
  async run(): Promise<Figures> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-bench-webhooks-'));
    const rx = await startReceiver();
    const p = createPlatform({ dataDir: dir, logger: createLogger('silent'), env: { AGENT_DESK_LOG_LEVEL: 'silent', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const hook = p.services.webhooks.create(1, '1', { url: `${rx.url}/hook`, method: 'POST' });
      await bare(rx.url, 300, PER_WEBHOOK_CONCURRENCY); // warm-up
      // The baseline runs before and after the delivery run; their mean evens out a machine whose load drifts.
      const baselineBefore = await bare(rx.url, THROUGHPUT_EVENTS, PER_WEBHOOK_CONCURRENCY);

      // Throughput: a backlog of events (recorded in one transaction), drained to one webhook.
      let before = await rx.count();
      const t0 = wall();
      p.db.transaction(() => {
        for (let i = 0; i < THROUGHPUT_EVENTS; i++) emit(p, i + 1);
      })();
      const enqueuedMs = wall() - t0;
      await waitCount(rx, before + THROUGHPUT_EVENTS, 120_000);
      const arrivals = Object.entries(await rx.arrivals())
        .filter(([k]) => k.endsWith('|/hook'))
        .map(([, t]) => t);
      const drainMs = Math.max(...arrivals) - t0;
      const perSecond = THROUGHPUT_EVENTS / (drainMs / 1000);
      await p.jobs.idle();
      const baselineAfter = await bare(rx.url, THROUGHPUT_EVENTS, PER_WEBHOOK_CONCURRENCY);
      const barePerSecond = (baselineBefore.perSecond + baselineAfter.perSecond) / 2;

      // Latency: one event at a time, from the emit to its arrival; beside one bare POST at a time.
      const bareOne = await bare(rx.url, LATENCY_EVENTS, 1, LATENCY_GAP_MS);
      before = await rx.count();
      const emitted = new Map<string, number>();
      const ids: number[] = [];
      for (let i = 0; i < LATENCY_EVENTS; i++) {
        const at = wall();
        const id = 100_000 + i;
        emit(p, id);
        ids.push(id);
        const msg = p.db.prepare<[], { message_id: string }>('SELECT message_id FROM webhook_events ORDER BY id DESC LIMIT 1').get()!.message_id;
        emitted.set(`${msg}|/hook`, at);
        await new Promise((r) => setTimeout(r, LATENCY_GAP_MS));
      }
      await waitCount(rx, before + LATENCY_EVENTS, 60_000);
      const got = await rx.arrivals();
      const latencies = [...emitted].map(([k, at]) => got[k] - at);
      await p.jobs.idle();
      const w = p.services.webhooks.get(1, hook.id);

      return {
        'throughput deliveries/s (target >= 500)': perSecond,
        'throughput bare signed POST/s, same concurrency': barePerSecond,
        'throughput ratio delivery / bare': perSecond / barePerSecond,
        'enqueue of the backlog, ms per event': enqueuedMs / THROUGHPUT_EVENTS,
        'latency emit->arrival p50 ms': pct(latencies, 50),
        'latency emit->arrival p99 ms (target <= 50)': pct(latencies, 99),
        'latency emit->arrival max ms': Math.max(...latencies),
        'latency bare POST (one at a time) p50 ms': pct(bareOne.latencies, 50),
        'latency bare POST (one at a time) p99 ms': pct(bareOne.latencies, 99),
        'latency ratio p99 delivery / bare': pct(latencies, 99) / pct(bareOne.latencies, 99),
        'success_count (expect events sent)': w.success_count,
        'failure_count (expect 0)': w.failure_count,
        'per-webhook concurrency': PER_WEBHOOK_CONCURRENCY,
      };
    } finally {
      await p.close();
      rx.child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
};
