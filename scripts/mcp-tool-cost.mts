// What one MCP tool call costs, two checkouts side by side: each serves a platform on loopback with
// its own data dir, and `search_memories` is called over /mcp with the real MCP client, the two
// interleaved (alternating which goes first) so that load on the machine falls on both alike.
//
//   npx tsx scripts/mcp-tool-cost.mts --a DIR --b DIR [--rounds 600]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const { values } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string' }, rounds: { type: 'string', default: '600' } } });
if (!values.a || !values.b) {
  process.stderr.write('Usage: npx tsx scripts/mcp-tool-cost.mts --a CHECKOUT --b CHECKOUT [--rounds N]\n');
  process.exit(2);
}
const key = `tool-cost-${process.pid}-0123456789abcdef`;
process.env.AGENT_DESK_API_KEY = key;
process.env.AGENT_DESK_OLLAMA_AUTODETECT = '0';

async function start(root: string) {
  const load = (f: string) => import(pathToFileURL(path.join(path.resolve(root), 'src-main/platform', f)).href);
  const { createPlatform } = await load('platform.ts');
  const { listen } = await load('transports/http/server.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-tool-cost-'));
  const running = await listen(createPlatform({ dataDir }), { host: '127.0.0.1', port: 0 });
  const client = new Client({ name: 'tool-cost', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  for (let i = 0; i < 20; i++) await client.callTool({ name: 'create_memory', arguments: { memory: `Note ${i}: the staging database listens on port 5433.` } });
  const close = async () => {
    await client.close();
    await running.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { client, close, ms: [] as number[] };
}

const a = await start(values.a);
const b = await start(values.b);
const call = async (s: typeof a) => {
  const t0 = performance.now();
  const r = await s.client.callTool({ name: 'search_memories', arguments: { query: 'staging', per_page: 10 } });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return performance.now() - t0;
};
for (let i = 0; i < 50; i++) {
  await call(a);
  await call(b);
}
for (let i = 0; i < Number(values.rounds); i++) for (const s of i % 2 ? [a, b] : [b, a]) s.ms.push(await call(s));
const at = (x: number[], q: number) => [...x].sort((p, r) => p - r)[Math.floor(x.length * q)];
for (const [name, s] of [['a', a], ['b', b]] as const) process.stdout.write(`${name} (${name === 'a' ? values.a : values.b}): median ${at(s.ms, 0.5).toFixed(2)} ms, p90 ${at(s.ms, 0.9).toFixed(2)} ms\n`);
process.stdout.write(`b/a median: ${(at(b.ms, 0.5) / at(a.ms, 0.5)).toFixed(2)}\n`);
await a.close();
await b.close();
