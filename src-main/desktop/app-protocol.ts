import fs from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { contentTypeOf, safeJoin } from '../platform/kernel/static-files.js';

/**
 * The renderer is served from a privileged custom scheme, agent-desk://app/, rather than
 * file://: file: pages share one origin with every local file, a custom standard scheme has
 * its own origin, a real CSP and no access to the disk beyond the renderer's folder.
 */
export const APP_SCHEME = 'agent-desk';
export const APP_HOST = 'app';
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } }]);
}

/** Answers agent-desk://app/... from the renderer folder; unknown client routes get index.html. */
export function appProtocolHandler(rendererDir: string, csp: string): (req: Request) => Promise<Response> {
  const root = path.resolve(rendererDir);
  return async (req) => {
    const url = new URL(req.url);
    if (url.host !== APP_HOST || req.method !== 'GET') return new Response('Not found', { status: 404 });
    const requested = url.pathname === '/' ? '/index.html' : url.pathname;
    let file = safeJoin(root, requested);
    if (!file) return new Response('Not found', { status: 404 });
    if (!fs.existsSync(file) && !path.posix.extname(requested)) file = path.join(root, 'index.html');
    try {
      const body = await fs.promises.readFile(file);
      const type = contentTypeOf(file);
      const headers: Record<string, string> = { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff' };
      if (type.startsWith('text/html')) headers['Content-Security-Policy'] = csp;
      return new Response(new Uint8Array(body), { status: 200, headers });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  };
}

export function serveAppScheme(rendererDir: string, csp: string): void {
  protocol.handle(APP_SCHEME, appProtocolHandler(rendererDir, csp));
}

/** Whether a URL is one of the app's own pages (the scheme, or the dev server in development). */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST) return true;
    if (devServerUrl) {
      const dev = new URL(devServerUrl);
      return u.protocol === dev.protocol && u.host === dev.host;
    }
  } catch {}
  return false;
}
