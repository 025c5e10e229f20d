// The path of one MCP tool call through the code: which files it enters, in order, from the HTTP
// server to the service that does the work. Serves a platform of --root (default: this checkout;
// another checkout's sources for a "before") on loopback, calls `create_memory` over /mcp with the
// real MCP client, and prints the stack seen inside the memories service (async frames included).
//
//   npx tsx scripts/mcp-call-path.ts [--root DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const here = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const { values } = parseArgs({ options: { root: { type: 'string', default: here } } });
const root = path.resolve(values.root!);
const key = `call-path-${process.pid}-0123456789abcdef`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-call-path-'));
process.env.AGENT_DESK_API_KEY = key;
process.env.AGENT_DESK_OLLAMA_AUTODETECT = '0';
Error.stackTraceLimit = 200;

const load = (file: string) => import(pathToFileURL(path.join(root, 'src-main/platform', file)).href);
const { createPlatform } = await load('platform.ts');
const { listen } = await load('transports/http/server.ts');
const platform = createPlatform({ dataDir });
const running = await listen(platform, { host: '127.0.0.1', port: 0 });

// Two sights of the call: where the /mcp request is authenticated (its way in through the HTTP
// app), and inside the service that does the work (its way down from the MCP server). Async
// stacks show only awaited frames, so each sight shows part of the path.
const sights = { in: '', inAtWork: '', work: '' };
const keys = platform.services.keys;
const verify = keys.verify.bind(keys);
keys.verify = (...args: Parameters<typeof verify>) => {
  sights.in = new Error('key check').stack ?? '';
  return verify(...args);
};
const memories = platform.services.memories;
const create = memories.create.bind(memories);
memories.create = (...args: Parameters<typeof create>) => {
  sights.work = new Error('memories.create').stack ?? '';
  sights.inAtWork = sights.in;
  return create(...args);
};

const client = new Client({ name: 'call-path', version: '1.0.0' });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  const res = await client.callTool({ name: 'create_memory', arguments: { memory: 'The path of a tool call.' } });
  if (res.isError) throw new Error(JSON.stringify(res.content));
} finally {
  await client.close();
  // Closing the server closes the platform it serves.
  await running.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// Innermost first, as V8 writes it; printed outermost first, one line per file entered (a package by its name).
function filesOf(stack: string): string[] {
  const frames = stack
    .split('\n')
    .slice(1)
    .map((l) => /\(?((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/.exec(l.trim())?.[1]?.replace('file://', ''))
    .filter((f): f is string => !!f && (f.startsWith(root) || f.includes('/node_modules/')) && !f.endsWith('mcp-call-path.ts'))
    .map((f) => (f.includes('/node_modules/') ? `[${/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)![1]}]` : path.relative(root, f)))
    .reverse();
  return frames.filter((f, i) => f !== frames[i - 1]);
}
process.stdout.write(`The tools/call request on its way in (stack at the key check):\n  ${filesOf(sights.inAtWork).join('\n  ')}\n`);
process.stdout.write(`The call on its way down (stack inside memories.create):\n  ${filesOf(sights.work).join('\n  ')}\n`);
