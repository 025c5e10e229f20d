import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { requestHeader } from '../request-header.js';
import { ForbiddenError } from '../../../kernel/errors.js';

const ALLOW_HEADERS = 'Authorization, Content-Type, x-workspace-id, Accept, Last-Event-ID';
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** CORS only for origins on the user's allowlist; everyone else gets no CORS headers at all. */
export function cors(allowed: () => string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = requestHeader(c, 'origin');
    const ok = !!origin && allowed().some((a) => a === '*' || a.toLowerCase() === origin.toLowerCase());
    const preflight = c.req.method === 'OPTIONS' && !!requestHeader(c, 'access-control-request-method');
    if (preflight) {
      if (!ok) throw new ForbiddenError('Origin not allowed.');
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': origin!,
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
          Vary: 'Origin',
        },
      });
    }
    await next();
    if (ok) {
      c.res.headers.set('Access-Control-Allow-Origin', origin!);
      c.res.headers.append('Vary', 'Origin');
    }
  };
}
