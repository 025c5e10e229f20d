/**
 * Where a GET /api/agents/{id} goes: serves the platform (or, with `bare`, a bare Hono app answering
 * the same JSON through the same adapter) under the paced client, with V8's CPU profiler on, then
 * prints the profile's self time per request by place (Node's HTTP, the adapter, Hono, the
 * platform's files, GC) and its heaviest functions.
 *
 *   node --import tsx bench/helpers/profile-api.ts [platform|bare] [seconds] [rate]
 *
 * The profile is taken through node:inspector (in this process, every 100 µs) around the
 * measured load only, so start-up and warm-up are not in it; it is written to
 * $TMPDIR/api-<which>.cpuprofile for a flame graph (Chrome DevTools or speedscope open it).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createPlatform } from '../../src-main/platform/platform.js';
import { listen } from '../../src-main/platform/transports/http/server.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'bench-key-0123456789abcdef';
const which = process.argv[2] === 'bare' ? 'bare' : 'platform';
const seconds = Number(process.argv[3] ?? 6);
const rate = Number(process.argv[4] ?? 4000);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The place a frame's code lives in, for the summary. */
function placeOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:internal/http') || url.startsWith('node:_http') || url.startsWith('node:http')) return 'node: http';
  if (url.startsWith('node:internal/streams') || url.startsWith('node:stream')) return 'node: streams';
  if (url.startsWith('node:net') || url.startsWith('node:internal/stream_base')) return 'node: net';
  if (url.startsWith('node:internal/deps/undici')) return 'node: undici (Request/Response/Headers)';
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    const pkg = rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    const file = rest.slice(rest[0].startsWith('@') ? 2 : 1).join('/');
    return `${pkg}: ${file.replace(/^dist\//, '')}`;
  }
  const src = url.indexOf('/src-main/');
  if (src >= 0) return url.slice(src + 1);
  const bench = url.indexOf('/bench/');
  return bench >= 0 ? url.slice(bench + 1) : url;
}

/** Self time (µs) per place and per function, from the samples. */
function summarize(p: Profile, requests: number): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
  const places = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === '(idle)') continue;
    busy += us;
    const place = placeOf(url, functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const fn = `${functionName || '(anonymous)'} ${place}${url ? `:${lineNumber + 1}` : ''}`;
    fns.set(fn, (fns.get(fn) ?? 0) + us);
  }
  const per = (us: number) => (us / requests).toFixed(2).padStart(7);
  const lines = [`${which}: ${requests} requests, ${(busy / requests).toFixed(1)} µs of samples per request (idle left out)`, '', 'µs/request  place'];
  for (const [k, v] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 30)) lines.push(`${per(v)}     ${k}`);
  lines.push('', 'µs/request  function (self time)');
  for (const [k, v] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, 45)) lines.push(`${per(v)}     ${k}`);
  return lines.join('\n');
}

function serveBare(app: Hono): Promise<string> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server;
    server.once('listening', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-profile-api-'));
const p = createPlatform({ dataDir: dir, envApiKey: KEY, logger: createLogger('silent') });
const running = await listen(p, { port: 0 });
const auth = { authorization: `Bearer ${KEY}` };
const agent = await (await fetch(`${running.url}/api/agents/1`, { headers: auth })).json();
const bareApp = new Hono();
bareApp.get('/api/agents/:id', (c) => c.json(agent));
const url = which === 'bare' ? `${await serveBare(bareApp)}/api/agents/1` : `${running.url}/api/agents/1`;
const headers = which === 'bare' ? {} : auth;

const client = fork(path.join(ROOT, 'bench/helpers/paced-load.mjs'), [], { execArgv: [] });
const round = (secs: number) =>
  new Promise<{ done: number; non2xx: number }>((resolve) => {
    client.once('message', (m) => resolve(m as { done: number; non2xx: number }));
    client.send({ url, headers, rate, seconds: secs, connections: 16 });
  });
await round(3);
const session = new inspector.Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const r = await round(seconds);
const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
if (r.non2xx) throw new Error(`${r.non2xx} answers were not 2xx`);
const out = path.join(os.tmpdir(), `api-${which}.cpuprofile`);
fs.writeFileSync(out, JSON.stringify(profile));
process.stdout.write(`${summarize(profile, r.done)}\n\nProfile: ${out}\n`);
client.kill();
await running.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
