import type { Context } from 'hono';
import { getPath } from 'hono/utils/url';
import { requestHeader } from './request-header.js';
import type { AppEnv } from './env.js';

/** Paths that are never the API's without a prefix: the prefixed ones and the app's login. */
const OWN_ROOTS = /^\/(api|v1|mcp|login)(\/|$)/;

const HTML_RANGES = new Set(['text/html', 'application/xhtml+xml', 'text/*', '*/*']);

/**
 * Whether the Accept header admits HTML, as HTTP reads it: no header admits anything, `*\/*`
 * and `text/*` admit HTML, a range with q=0 refuses it. `Accept: application/json` does not.
 */
export function acceptsHtml(accept: string | null | undefined): boolean {
  if (!accept || !accept.trim()) return true;
  return accept.split(',').some((part) => {
    const [range, ...params] = part.split(';').map((x) => x.trim().toLowerCase());
    const q = params.find((x) => x.startsWith('q='));
    return HTML_RANGES.has(range) && !(q && Number(q.slice(2)) === 0);
  });
}

const hasBearer = (req: Request) => /^Bearer\s+\S/i.test(req.headers.get('authorization') ?? '');

/**
 * The hosted platform's newer base URL has no `/api`: a request for an API path without its
 * prefix is routed to the API when it carries a bearer key or does not ask for HTML (so such a
 * client gets the API's JSON, e.g. its 401, never the app's page). A browser navigation to the
 * same path (the app's own client-side routes) is left alone. `apiSegments` are the first path
 * segments under `/api` (agents, agent-responses, files...), read once the routes exist.
 */
export function hostedGetPath(apiSegments: () => ReadonlySet<string>) {
  return (req: Request): string => {
    const path = getPath(req);
    if (OWN_ROOTS.test(path)) return path;
    const first = path.split('/')[1] ?? '';
    if (!first || !apiSegments().has(first)) return path;
    if (!hasBearer(req) && acceptsHtml(req.headers.get('accept'))) return path;
    return `/api${path}`;
  };
}

/** The first path segments of the routes mounted under `/api`. */
export function apiSegmentsOf(routes: readonly { path: string }[]): Set<string> {
  const set = new Set<string>();
  for (const r of routes) {
    const m = /^\/api\/([^/:*]+)/.exec(r.path);
    if (m) set.add(m[1]);
  }
  return set;
}

/**
 * A client that does not accept HTML never gets the app's page (the renderer's shell or its
 * "being built" page): it gets the API's JSON 404 instead. Files (scripts, styles) are not pages.
 * Run on the answer, after the route.
 */
export function noPageForApiClients(c: Context<AppEnv>): void {
  if (acceptsHtml(requestHeader(c, 'accept')) || c.req.path.startsWith('/api/')) return;
  if (!/^text\/html\b/i.test(c.res.headers.get('content-type') ?? '')) return;
  c.res = new Response(JSON.stringify({ message: 'Not found.' }), { status: 404, headers: { 'content-type': 'application/json' } });
}
