/**
 * Real MCP servers from npm for the tool tests: server-everything (stdio and Streamable HTTP) and
 * server-filesystem (stdio, on a temp folder), added through the API like a user would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { limit } from '../fixtures/until.js';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createRequire } from 'node:module';
import { call } from '../api/helpers.js';
import type { Platform } from '../../src-main/platform/platform.js';

const require = createRequire(import.meta.url);
export const EVERYTHING = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist/index.js');
export const FILESYSTEM = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist/index.js');

export async function addServer(p: Platform, body: Record<string, unknown>): Promise<any> {
  const r = await call(p, 'POST', '/api/mcp-servers', { body });
  if (r.status !== 201) throw new Error(`add server: ${r.status} ${r.text}`);
  return r.json;
}

export const everythingStdio = (extra: Record<string, unknown> = {}) => ({ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], approval: 'auto', ...extra });
export const filesystemStdio = (dir: string, extra: Record<string, unknown> = {}) => ({ name: 'files', command: process.execPath, args: [FILESYSTEM, dir], approval: 'auto', ...extra });

/** A chat agent that may use the given servers (a fresh one per test, so runs do not mix). */
export async function toolAgent(p: Platform, serverIds: number[], extra: Record<string, unknown> = {}): Promise<number> {
  const r = await call(p, 'POST', '/api/agents', {
    body: {
      title: `Tool agent ${Math.random().toString(36).slice(2, 8)}`,
      type: 'chat',
      instructions: 'Use your tools.',
      questions: [{ type: 'array', name: 'messages', description: 'Chat history', required: true }],
      tool_servers: serverIds.map((server_id) => ({ server_id, tools: null })),
      ...extra,
    },
  });
  if (r.status !== 201 && r.status !== 200) throw new Error(`create agent: ${r.status} ${r.text}`);
  return r.json.id;
}

export const ask = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra });

/** The text of the last `tool` message the model received (OpenAI format). */
export function lastToolResult(body: any): string | null {
  const msgs = (body?.messages ?? []) as any[];
  const t = [...msgs].reverse().find((m) => m.role === 'tool');
  return t ? String(t.content) : null;
}

/** A free loopback port (the HTTP everything server takes PORT from its env). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** server-everything over Streamable HTTP, as a separate process; resolves once it listens. */
export async function startEverythingHttp(fixedPort?: number): Promise<{ url: string; port: number; child: ChildProcess; stop(): Promise<void> }> {
  const port = fixedPort ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`server-everything http did not start: ${err}`)), limit(30_000));
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes('listening on port')) {
        clearTimeout(t);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server-everything http exited ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    child,
    stop: () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null) return r();
        child.once('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

export function writeTemp(dir: string, name: string, content: string): string {
  const f = path.join(dir, name);
  fs.writeFileSync(f, content);
  return f;
}

import { until } from '../fixtures/until.js';

export { until };
