/**
 * Loaded into the server process by the load soak (`node --import <this file>`, with LOAD_PROBE_FILE
 * naming where to write): what only the server itself can see, as JSON lines, read back by
 * test/load/soak.ts. Every 200 ms: its memory split (V8 heap used and reserved per space, memory
 * outside the heap, RSS), the share of time its event loop was busy, and how late each 20 ms timer
 * fired (the event-loop delay every request behind it waits). Once per answered HTTP request: the
 * time from its arrival in the server to the end of its answer (server-side latency, which leaves
 * out the client and the loopback). The pauses of its garbage collections, full and young, per tick.
 * Pure observation: it changes nothing in the server.
 * Each worker thread of the server writes its own heap once a second.
 * SIGUSR2 writes a heap snapshot to the temp directory (for finding where a peak goes by hand).
 */
import dc from 'node:diagnostics_channel';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { isMainThread, threadId, threadName } from 'node:worker_threads';

const file = process.env.LOAD_PROBE_FILE;
// --import reaches the server's worker threads too: each reports its own heap (an isolate per thread), once a second.
if (file && !isMainThread) {
  setInterval(() => {
    const h = v8.getHeapStatistics();
    fs.appendFileSync(file, JSON.stringify({ thread: threadName || `thread ${threadId}`, t: Math.round(performance.timeOrigin + performance.now()), heapTotal: h.total_heap_size, heapUsed: h.used_heap_size, heapPhysical: h.total_physical_size, external: h.external_memory, malloced: h.malloced_memory }) + '\n');
  }, 1_000).unref();
}
if (file && isMainThread) {
  const TICK_MS = 200;
  const DELAY_MS = 20;
  const now = () => performance.timeOrigin + performance.now();
  let lines = [];
  const flush = () => {
    if (!lines.length) return;
    fs.appendFileSync(file, lines.join('\n') + '\n');
    lines = [];
  };

  // Event-loop delay: how late a 20 ms timer fires, in ms.
  let delays = [];
  let due = performance.now() + DELAY_MS;
  const lateness = () => {
    const t = performance.now();
    delays.push(Math.round((t - due) * 10) / 10);
    due = t + DELAY_MS;
    setTimeout(lateness, DELAY_MS).unref();
  };
  setTimeout(lateness, DELAY_MS).unref();

  // Server-side request time: from the request's arrival to its answer's end.
  const started = new WeakMap();
  dc.subscribe('http.server.request.start', ({ request }) => started.set(request, now()));
  dc.subscribe('http.server.response.finish', ({ request, response }) => {
    const t0 = started.get(request);
    if (t0 === undefined) return;
    lines.push(JSON.stringify({ req: 1, t0: Math.round(t0), ms: Math.round((now() - t0) * 10) / 10, m: request.method, u: String(request.url).split('?')[0], s: response.statusCode }));
  });

  // Garbage collection pauses of the main thread: full (mark-compact) and young (scavenge), in ms.
  let gc = { major: [0, 0], minor: [0, 0] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const k = e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? gc.major : e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR ? gc.minor : null;
      if (!k) continue;
      k[0]++;
      k[1] = Math.round((k[1] + e.duration) * 10) / 10;
    }
  }).observe({ entryTypes: ['gc'] });

  let elu = performance.eventLoopUtilization();
  setInterval(() => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, [s.space_used_size, s.space_size, s.physical_space_size]]));
    const h = v8.getHeapStatistics();
    const e = performance.eventLoopUtilization(elu);
    elu = performance.eventLoopUtilization();
    lines.push(JSON.stringify({ t: Math.round(now()), rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, heapPhysical: h.total_physical_size, malloced: h.malloced_memory, spaces, elu: Math.round(e.utilization * 1000) / 1000, delays, gc }));
    delays = [];
    gc = { major: [0, 0], minor: [0, 0] };
    flush();
  }, TICK_MS).unref();

  process.on('SIGUSR2', () => {
    const out = path.join(os.tmpdir(), `agent-desk-load-${process.pid}-${Date.now()}.heapsnapshot`);
    v8.writeHeapSnapshot(out);
    lines.push(JSON.stringify({ snapshot: out }));
  });
  process.once('exit', flush);
}
