/**
 * What each part of GET /api/agents/{id} costs, by taking it away: the server's CPU per request
 * at a paced rate (paced-load.mjs) for a bare Hono app, and for platforms served by the same
 * adapter in the same process, whole or with a part answered by a stub:
 *
 *   bare                      the bare handler (the bench's baseline)
 *   bare+auth header          the same, sent the Authorization header the platform is sent
 *   platform                  the platform as served
 *   platform, no stamp        agents.get answers the cached agent (no stamp, no cache lookup)
 *   platform, no stamp, key   and keys.verify says yes without hashing the key
 *
 * A CPU profile cannot tell these apart on a loaded machine (its samples are wall time, so a
 * process descheduled in a native call charges it); taking a part away can. Alternating rounds,
 * medians. Used to write docs/request-cost.md.
 *
 *   node --import tsx bench/helpers/api-ablation.ts [rounds] [rate]
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createPlatform } from '../../src-main/platform/platform.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'bench-key-0123456789abcdef';
const rounds = Number(process.argv[2] ?? 16);
const rate = Number(process.argv[3] ?? 3000);
const auth = { authorization: `Bearer ${KEY}` };

const dirs: string[] = [];
const platform = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-ablation-'));
  dirs.push(dir);
  return createPlatform({ dataDir: dir, envApiKey: KEY, logger: createLogger('silent') });
};
const served = (fetch: (req: Request, env?: never) => Response | Promise<Response>) =>
  new Promise<string>((resolve) => {
    const server = serve({ fetch: fetch as unknown as Parameters<typeof serve>[0]['fetch'], hostname: '127.0.0.1', port: 0 }) as Server;
    server.once('listening', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/agents/1`));
  });

const whole = platform();
const noStamp = platform();
const noStampNoKey = platform();
const wholeUrl = await served(whole.app.fetch);
const agentJson = await (await fetch(wholeUrl, { headers: auth })).json();
const cached = whole.services.agents.get(1, 1);
noStamp.services.agents.get = () => cached;
noStampNoKey.services.agents.get = () => cached;
noStampNoKey.services.keys.verify = () => 1;
const bare = new Hono();
bare.get('/api/agents/:id', (c) => c.json(agentJson));
const bareUrl = await served(bare.fetch);

const targets: [string, string, Record<string, string>][] = [
  ['bare', bareUrl, {}],
  ['bare+auth header', bareUrl, auth],
  ['platform', wholeUrl, auth],
  ['platform, no stamp', await served(noStamp.app.fetch), auth],
  ['platform, no stamp, key', await served(noStampNoKey.app.fetch), auth],
];

const client = fork(path.join(ROOT, 'bench/helpers/paced-load.mjs'), [], { execArgv: [] });
const round = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    const cpu0 = process.cpuUsage();
    client.once('message', (m: { done: number; sent: number; errors: number; non2xx: number }) => {
      const cpu = process.cpuUsage(cpu0);
      if (m.errors || m.non2xx || m.done !== m.sent) reject(new Error(`${url}: ${JSON.stringify(m)}`));
      resolve((cpu.user + cpu.system) / m.done);
    });
    client.send({ url, headers, rate, seconds: 0.5, connections: 16 });
  });

const seen = new Map<string, number[]>();
for (const [, url, headers] of targets) await round(url, headers);
for (let r = 0; r < rounds; r++) {
  for (const [name, url, headers] of r % 2 ? [...targets].reverse() : targets) {
    seen.set(name, [...(seen.get(name) ?? []), await round(url, headers)]);
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
process.stdout.write(`server CPU µs per request, median of ${rounds} rounds at ${rate}/s (load ${os.loadavg()[0].toFixed(1)}):\n`);
for (const [name] of targets) process.stdout.write(`  ${name.padEnd(26)} ${median(seen.get(name)!).toFixed(1)}\n`);
client.kill();
await Promise.all([whole.close(), noStamp.close(), noStampNoKey.close()]);
for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
process.exit(0);
