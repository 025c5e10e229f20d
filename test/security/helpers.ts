import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Hono } from 'hono';
import { makePlatform, tempDir } from '../api/helpers.js';
import { createBrowserSessions, type BrowserSessions } from '../../src-main/platform/transports/http/session.js';
import { mountStatic } from '../../src-main/platform/transports/http/static.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform, PlatformOptions } from '../../src-main/platform/platform.js';

export type TestPlatform = Platform & { dir: string; browser: BrowserSessions; uiDir: string; setPort(n: number): void };

/** A platform wired the way `npm run serve` wires it: browser sessions and the static renderer too. */
export function servePlatform(opts: PlatformOptions = {}): TestPlatform {
  let port = 8787;
  const browser = createBrowserSessions({ userId: 1, port: () => port });
  const p = makePlatform({ env: {}, ...opts, app: { resolvers: [browser.resolver] } });
  browser.mount(p.app);
  const uiDir = tempDir('agent-desk-ui-');
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>Agent Desk</title>');
  mountStatic(p.app, { root: uiDir });
  // The session cookie is named after the port, known only once listening.
  return Object.assign(p, { browser, uiDir, setPort: (n: number) => void (port = n) });
}

export async function serveOn(p: TestPlatform): Promise<RunningServer> {
  const s = await listen(p, { host: '127.0.0.1', port: 0 });
  p.setPort(s.port);
  return s;
}

export async function stop(p: TestPlatform, s?: RunningServer): Promise<void> {
  if (s) await s.close();
  else await p.close();
  fs.rmSync(p.dir, { recursive: true, force: true });
  fs.rmSync(p.uiDir, { recursive: true, force: true });
}

export interface RouteEntry {
  method: string;
  path: string;
}

/** Every concrete route of the app (middleware-only entries and duplicates left out). */
export function concreteRoutes(app: Hono<any>): RouteEntry[] {
  const seen = new Map<string, RouteEntry>();
  for (const r of app.routes) {
    if (r.path.includes('*')) continue;
    seen.set(`${r.method} ${r.path}`, { method: r.method, path: r.path });
  }
  return [...seen.values()];
}

/** Auth-guarded prefixes (`/v1/*`...): any path under them needs a key too. */
export function wildcardPrefixes(app: Hono<any>): string[] {
  return [...new Set(app.routes.filter((r) => r.path.endsWith('/*') && r.path !== '/*').map((r) => r.path.slice(0, -2)))];
}

export const fill = (p: string, v = '1') => p.replace(/:[^/]+/g, v);

/** Sends raw bytes to 127.0.0.1:port and returns everything the server answers before closing or `ms`. */
export function rawHttp(port: number, data: string | Buffer, ms = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, ms);
    sock.on('data', (c) => {
      chunks.push(c);
      // One full answer is enough: stop once headers and a declared body have arrived.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const len = /content-length:\s*(\d+)/i.exec(text)?.[1];
      if (end >= 0 && len !== undefined && text.length >= end + 4 + Number(len)) done();
    });
    sock.on('end', done);
    sock.on('error', (e) => (chunks.length ? done() : reject(e)));
    sock.write(data);
  });
}

export const statusOf = (raw: string) => Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0);
