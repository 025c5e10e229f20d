import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * A request header by its lower-case name. Served by Node, it is read from the parsed message:
 * asking the adapter's Request for its headers builds a whole Headers object (a few µs, on every
 * request of the hot path) which nothing else needs. In-process callers have a real Request.
 * Node keeps the first of a repeated Host or Authorization and joins the others with ", ", as
 * Headers does.
 */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const headers = c.env?.incoming?.headers;
  if (!headers) return c.req.header(name);
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
