import crypto from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';

/** One place that turns any thrown error into the contract's envelope (CONTRACT.md "Errors"). */
export function errorResponse(c: Context, err: unknown, log: Logger): Response {
  if (err instanceof ValidationError) return c.json({ message: err.message, errors: err.errors }, 422);
  if (err instanceof PlatformError) {
    // Every 422 carries `errors` (CONTRACT.md), also when a service threw a plain PlatformError(422).
    if (err.status === 422) return c.json({ message: err.message, errors: { [err.code]: [err.message] } }, 422);
    const headers: Record<string, string> = {};
    if (typeof err.extra.retryAfter === 'number') headers['Retry-After'] = String(err.extra.retryAfter);
    if (err.status === 401) headers['WWW-Authenticate'] = 'Bearer';
    return c.json({ message: err.message }, err.status as 400, headers);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    if (status === 400) return c.json({ message: /json/i.test(err.message) ? 'Malformed JSON in request body.' : err.message || 'Bad request.' }, 400);
    if (status === 413) return c.json({ message: 'The request body is too large.' }, 413);
    return c.json({ message: err.message || 'Request failed.' }, status);
  }
  const ref = crypto.randomBytes(4).toString('hex');
  log.error({ err, ref, path: c.req.path, method: c.req.method }, 'unhandled error');
  return c.json({ message: 'Server Error', error: `Internal error (ref ${ref}); see the Agent Desk log.` }, 500);
}
