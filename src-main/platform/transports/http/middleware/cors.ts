import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { requestHeader } from '../request-header.js';
import { ForbiddenError } from '../../../kernel/errors.js';

const ALLOW_HEADERS = 'Authorization, Content-Type, x-workspace-id, Accept, Last-Event-ID';
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

export interface Cors {
  /** Whether the request's Origin is on the allowlist (then its answer gets CORS headers). */
  allows(c: Context<AppEnv>): boolean;
  /** A preflight's answer (403 for an origin not allowed), or null when the request is not one. */
  preflight(c: Context<AppEnv>, allowed: boolean): Response | null;
  /** Adds the CORS headers to an allowed origin's answer. */
  mark(c: Context<AppEnv>): void;
}

/** CORS only for origins on the user's allowlist; everyone else gets no CORS headers at all. */
export function cors(allowed: () => string[]): Cors {
  return {
    allows(c) {
      const origin = requestHeader(c, 'origin');
      return !!origin && allowed().some((a) => a === '*' || a.toLowerCase() === origin.toLowerCase());
    },
    preflight(c, ok) {
      if (c.req.method !== 'OPTIONS' || !requestHeader(c, 'access-control-request-method')) return null;
      if (!ok) throw new ForbiddenError('Origin not allowed.');
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': requestHeader(c, 'origin')!,
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
          Vary: 'Origin',
        },
      });
    },
    mark(c) {
      c.res.headers.set('Access-Control-Allow-Origin', requestHeader(c, 'origin')!);
      c.res.headers.append('Vary', 'Origin');
    },
  };
}
