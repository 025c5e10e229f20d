import crypto from 'node:crypto';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';
import { diskFullError } from './disk-full.js';

/** An unknown route (the contract's `Not found.`); OpenAI clients get `Invalid URL` instead. */
export class RouteNotFoundError extends PlatformError {
  constructor() {
    super(404, 'Not found.', 'route_not_found');
  }
}

/** The path exists under other methods: 405 with `Allow`. */
export class MethodNotAllowedError extends PlatformError {
  constructor(method: string, allowed: string) {
    super(405, `The ${method} method is not supported for this route. Supported methods: ${allowed}.`, 'method_not_allowed', { allow: allowed });
  }
}

/** A fault that is not the client's: logged with a reference the user can quote, details never sent. */
export class ServerFault extends PlatformError {
  constructor(readonly ref: string) {
    super(500, 'Server Error', 'server_error', { error: `Internal error (ref ${ref}); see the Agent Desk log.` });
  }
}

/**
 * Every thrown thing as a PlatformError: the contract's own errors as they are, Hono's HTTP
 * exceptions by status, and anything else as a logged ServerFault. Each dialect renders from this.
 */
export function toPlatformError(err: unknown, log: Logger, where: Record<string, unknown> = {}): PlatformError {
  if (err instanceof PlatformError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 400) return new PlatformError(400, /json/i.test(err.message) ? 'Malformed JSON in request body.' : err.message || 'Bad request.', 'bad_request');
    if (err.status === 413) return new PlatformError(413, 'The request body is too large.', 'payload_too_large');
    return new PlatformError(err.status, err.message || 'Request failed.', 'http_error');
  }
  const full = diskFullError(err);
  if (full) {
    log.error({ err, ...where }, 'the disk is full');
    return full;
  }
  const ref = crypto.randomBytes(4).toString('hex');
  log.error({ err, ref, ...where }, 'unhandled error');
  return new ServerFault(ref);
}

/** Headers an error carries in every dialect. */
export function errorHeaders(err: PlatformError): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (typeof err.extra.retryAfter === 'number') headers['Retry-After'] = String(err.extra.retryAfter);
  if (typeof err.extra.allow === 'string') headers.Allow = err.extra.allow;
  if (err.status === 401) headers['WWW-Authenticate'] = 'Bearer';
  return headers;
}

/** The contract's envelope (CONTRACT.md "Errors"): `{message}`, 422 with `errors`, 500 with `error`. */
export function apiErrorBody(err: PlatformError): Record<string, unknown> {
  if (err instanceof ValidationError) return { message: err.message, errors: err.errors };
  // Every 422 carries `errors`, also when a service threw a plain PlatformError(422).
  if (err.status === 422) return { message: err.message, errors: { [err.code]: [err.message] } };
  if (err instanceof ServerFault) return { message: err.message, error: err.extra.error };
  return { message: err.message };
}

/** A dialect turns a platform error into the answer its clients read. */
export type ErrorDialect = (err: PlatformError, c?: Context) => Response;

export const apiDialect: ErrorDialect = (err) => new Response(JSON.stringify(apiErrorBody(err)), { status: err.status, headers: errorHeaders(err) });

/** One place that turns any thrown error into an answer, in the dialect of the path's clients. */
export function errorResponse(c: Context, err: unknown, log: Logger, dialect: ErrorDialect = apiDialect): Response {
  return dialect(toPlatformError(err, log, { path: c.req.path, method: c.req.method }), c);
}
