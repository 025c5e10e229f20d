import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { AppEnv } from './env.js';
import { TYPES, contentTypeOf, safeJoin } from '../../kernel/static-files.js';

/**
 * Browser mode serves the built renderer (out/renderer) at `/`, next to the API, so a plain
 * browser gets the same app as Electron. HTML carries a strict CSP: scripts only from here.
 */
export const repoRoot = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const defaultRendererDir = () => path.join(repoRoot(), 'out', 'renderer');

export const BROWSER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Inline style attributes and injected <style> from UI libraries; no inline script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');


/** Paths that belong to the API (or login), never to the static files. */
const NOT_STATIC = /^\/(api|v1|mcp|login)(\/|$)/;

export interface StaticOptions {
  root?: string;
  /** Why there is nothing to serve yet (building, build failed), shown instead of a bare 404. */
  pending?: () => string | null;
}

function htmlHeaders(): Record<string, string> {
  return {
    'Content-Type': TYPES['.html'],
    'Content-Security-Policy': BROWSER_CSP,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

function pendingPage(reason: string): string {
  const esc = reason.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><title>Agent Desk</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem"><h1>Agent Desk</h1><p>${esc}</p>
<p>The API is running meanwhile; see <a href="/api/docs">/api/docs</a>.</p></body></html>`;
}


async function fileOrNull(file: string): Promise<Buffer | null> {
  try {
    const st = await fs.promises.stat(file);
    return st.isFile() ? await fs.promises.readFile(file) : null;
  } catch {
    return null;
  }
}

/**
 * Adds the renderer's files to the app as a fall-through middleware (not a route), so unknown
 * API paths still get the API's own 404/405 answers.
 */
export function mountStatic(app: Hono<AppEnv>, opts: StaticOptions = {}): void {
  const root = path.resolve(opts.root ?? defaultRendererDir());
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || NOT_STATIC.test(c.req.path)) return next();
    const index = path.join(root, 'index.html');
    const reqPath = c.req.path === '/' ? '/index.html' : c.req.path;
    const file = safeJoin(root, reqPath);
    if (!file) return c.json({ message: 'Not found.' }, 404);
    let body = await fileOrNull(file);
    let served = file;
    // Client-side routes (no extension) get the app shell.
    if (!body && !path.posix.extname(c.req.path)) {
      body = await fileOrNull(index);
      served = index;
    }
    if (!body) {
      const reason = served === index || reqPath === '/index.html' ? opts.pending?.() : null;
      if (reason) return c.html(pendingPage(reason), 503, { ...htmlHeaders(), 'Cache-Control': 'no-store' });
      return next();
    }
    const ext = path.extname(served).toLowerCase();
    const headers: Record<string, string> =
      ext === '.html'
        ? htmlHeaders()
        : {
            'Content-Type': contentTypeOf(served),
            'X-Content-Type-Options': 'nosniff',
            // Vite fingerprints everything under assets/, so it never changes under one name.
            'Cache-Control': c.req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          };
    return new Response(method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  });
}

export interface RendererBuild {
  /** null when ready; else a sentence for the page and the terminal. */
  pending(): string | null;
  /** Resolves when the build ends (at once if nothing to do). */
  done: Promise<void>;
  /** Stops a running build (serve is shutting down). */
  cancel(): void;
}

function lockIsStale(lock: string): boolean {
  try {
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (!pid) return true;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'EPERM';
  }
}

/**
 * Builds the renderer on first serve when out/renderer/index.html is missing, in the
 * background so the API is up at once. One build at a time across processes (a lock file).
 * A failed build never stops serve: it says so and the API keeps running.
 */
export function ensureRendererBuilt(opts: { root?: string; outDir?: string; note: (line: string) => void; command?: string[] }): RendererBuild {
  const root = opts.root ?? repoRoot();
  const outDir = opts.outDir ?? path.join(root, 'out', 'renderer');
  const index = path.join(outDir, 'index.html');
  if (fs.existsSync(index)) return { pending: () => null, done: Promise.resolve(), cancel() {} };

  const config = path.join(root, 'src-renderer', 'vite.config.ts');
  const howTo = 'npx vite build -c src-renderer/vite.config.ts';
  let state: string | null = null;
  let child: ChildProcess | null = null;
  let canceled = false;
  const lock = path.join(path.dirname(outDir), '.renderer-build.lock');
  const fail = (why: string) => {
    state = `The web app could not be built (${why}). Run \`${howTo}\` to see why, then reload.`;
    opts.note(`Agent Desk: ${state} The API is running.`);
  };

  const done = new Promise<void>((resolve) => {
    if (!fs.existsSync(config)) {
      fail('src-renderer/vite.config.ts is missing');
      return resolve();
    }
    fs.mkdirSync(path.dirname(lock), { recursive: true });
    if (fs.existsSync(lock) && lockIsStale(lock)) fs.rmSync(lock, { force: true });
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch {
      state = 'Another Agent Desk process is building the web app; this page reloads by itself.';
      opts.note(`Agent Desk: ${state}`);
      return resolve();
    }
    state = 'The web app is being built (first start); this page reloads by itself.';
    opts.note(`Agent Desk: building the web app for the browser (first serve, \`${howTo}\`)...`);
    const [cmd, ...args] = opts.command ?? [process.execPath, path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', config];
    let output = '';
    child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child.stdout?.on('data', (d) => (output = (output + d).slice(-4000)));
    child.stderr?.on('data', (d) => (output = (output + d).slice(-4000)));
    let finished = false;
    const finish = (code: number | null, err?: Error) => {
      if (finished) return;
      finished = true;
      fs.rmSync(lock, { force: true });
      child = null;
      if (canceled) state = 'The web app build was stopped.';
      else if (err) fail(err.message);
      else if (code !== 0) fail(`exit code ${code}; ${output.trim().split('\n').slice(-3).join(' ')}`);
      else if (!fs.existsSync(index)) fail(`the build wrote no ${path.relative(root, index)}`);
      else {
        state = null;
        opts.note('Agent Desk: the web app is built.');
      }
      resolve();
    };
    child.once('error', (err) => finish(null, err));
    child.once('exit', (code) => finish(code));
  });

  return {
    pending: () => state,
    done,
    cancel() {
      canceled = true;
      child?.kill('SIGTERM');
    },
  };
}
