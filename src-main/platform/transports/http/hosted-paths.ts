import type { MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import type { AppEnv } from './env.js';

/** Paths that are never the API's without a prefix: the prefixed ones and the app's login. */
const OWN_ROOTS = /^\/(api|v1|mcp|login)(\/|$)/;

/** A browser navigation names HTML; API clients (fetch, axios, curl's default) do not. */
export const acceptsHtml = (accept: string | null | undefined) => /\btext\/html\b|\bapplication\/xhtml\+xml\b/i.test(accept ?? '');

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
 */
export function noPageForApiClients(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (acceptsHtml(c.req.header('accept')) || c.req.path.startsWith('/api/')) return;
    if (!/^text\/html\b/i.test(c.res.headers.get('content-type') ?? '')) return;
    c.res = new Response(JSON.stringify({ message: 'Not found.' }), { status: 404, headers: { 'content-type': 'application/json' } });
  };
}
