import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import type { Cors } from './cors.js';
import type { Authenticate } from './auth.js';
import { noPageForApiClients } from '../hosted-paths.js';

/** The paths that need a key: /api, /v1 and /mcp, and everything under them. */
const KEYED_PATHS = /^\/(api|v1|mcp)(\/|$)/;
/** Paths reachable without a key: the API's own description, which holds no user data. */
const PUBLIC_PATHS = new Set(['/api/openapi.json', '/api/docs']);

/** Whether a routed path needs a principal. */
export const needsKey = (path: string): boolean => KEYED_PATHS.test(path) && !PUBLIC_PATHS.has(path);

export interface GateChecks {
  /** The Host check (DNS rebinding); throws 403. */
  host: (c: Context<AppEnv>) => void;
  cors: Cors;
  /** Whether the routed path needs a principal. */
  needsAuth: (path: string) => boolean;
  authenticate: Authenticate;
  /** Reads and checks a JSON body (a promise), or nothing to do (GET, multipart). */
  body: (c: Context<AppEnv>) => Promise<void> | undefined;
  /** The app's error handler: renders an error in the request's dialect. */
  onError: (err: Error, c: Context<AppEnv>) => Response | Promise<Response>;
}

/**
 * Every check a request passes before its route, as one middleware: a layer of Hono's chain costs
 * a closure and a promise per request, and these ran as five. In order: the Host, a CORS preflight,
 * the key (on /api, /v1 and /mcp), the JSON body. A check's error after the Host is answered here
 * by the app's error handler (as Hono answers a middleware's error at its own layer), so that the
 * answer of an allowed origin still gets its CORS headers; a Host refused gets none. On the way
 * out, a client that does not accept HTML never gets the app's page.
 */
export function requestGate(checks: GateChecks): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    checks.host(c);
    const allowed = checks.cors.allows(c);
    try {
      const preflight = checks.cors.preflight(c, allowed);
      if (preflight) return preflight;
      if (checks.needsAuth(c.req.path)) checks.authenticate(c);
      const reading = checks.body(c);
      if (reading) await reading;
      await next();
    } catch (err) {
      // Hono passes on what is not an Error; so does the gate.
      if (!(err instanceof Error)) throw err;
      c.error = err;
      c.res = await checks.onError(err, c);
    }
    if (allowed) checks.cors.mark(c);
    noPageForApiClients(c);
  };
}
