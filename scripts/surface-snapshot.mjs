#!/usr/bin/env node
// The platform's outside surface as files, to diff before and after a change: the OpenAPI document
// (GET /api/openapi.json) and the MCP server's tools/list (over /mcp, with the real MCP client).
//
//   node scripts/surface-snapshot.mjs --out docs/surface --label after [--url URL --key KEY] [--root DIR]
//
// With --url (and --key, else AGENT_DESK_API_KEY) it reads a running serve. Without, it starts
// `src-main/platform/cli/main.ts serve` of --root (default: this checkout; another checkout's
// sources for a "before") through tsx, on a free loopback port and an empty data dir, reads it and
// stops it. Writes <out>/openapi.<label>.json and <out>/tools-list.<label>.json, keys in a stable
// order so that `diff` shows only what changed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const HERE = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const { values } = parseArgs({
  options: { url: { type: 'string' }, key: { type: 'string' }, out: { type: 'string', default: 'docs/surface' }, label: { type: 'string' }, root: { type: 'string', default: HERE } },
});
if (!values.label) {
  process.stderr.write('Usage: node scripts/surface-snapshot.mjs --label NAME [--out DIR] [--url URL --key KEY] [--root CHECKOUT]\n');
  process.exit(2);
}

/** Starts a serve of `root` and resolves with its URL once it prints its listening line. */
function startServe(root, key) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-surface-'));
  const tsx = path.join(HERE, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [path.join(root, 'src-main/platform/cli/main.ts'), 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, AGENT_DESK_API_KEY: key, AGENT_DESK_NO_UI_BUILD: '1', AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () =>
    new Promise((resolve) => {
      child.once('exit', () => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        resolve();
      });
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ url: m[1], stop });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening`)));
  });
}

/** Objects with their keys sorted, so two snapshots diff by content only. */
const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
const write = (name, value) => {
  const file = path.join(values.out, `${name}.${values.label}.json`);
  fs.writeFileSync(file, `${JSON.stringify(sorted(value), null, 2)}\n`);
  process.stdout.write(`${file}\n`);
};

const key = values.key ?? process.env.AGENT_DESK_API_KEY ?? `surface-${process.pid}-key-0123456789`;
const served = values.url ? { url: values.url, stop: async () => {} } : await startServe(path.resolve(values.root), key);
try {
  fs.mkdirSync(values.out, { recursive: true });
  const doc = await fetch(`${served.url}/api/openapi.json`);
  if (!doc.ok) throw new Error(`GET /api/openapi.json: ${doc.status}`);
  write('openapi', await doc.json());
  const client = new Client({ name: 'surface-snapshot', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  try {
    // Tools in the server's order (the order is part of what a client sees).
    const { tools } = await client.listTools();
    write('tools-list', tools);
  } finally {
    await client.close();
  }
} finally {
  await served.stop();
}
