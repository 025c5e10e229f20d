import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/env.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { OpenAIErrorBody } from '../../contract/openai.js';

/** An error that already knows its OpenAI `type`, `code` and `param` (e.g. `model_not_found`). */
export class OpenAIError extends PlatformError {
  constructor(
    status: number,
    message: string,
    readonly type: string,
    /** OpenAI's `code` (null where OpenAI sends null); the platform's `code` falls back to `openai_error`. */
    readonly openaiCode: string | null,
    readonly param: string | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, message, openaiCode ?? 'openai_error');
  }
}

export const modelNotFound = (model: string) =>
  new OpenAIError(404, `The model \`${model}\` does not exist or you do not have access to it. GET /v1/models lists the agents and models you can use.`, 'invalid_request_error', 'model_not_found', 'model');

export const unsupported = (param: string, message: string) => new OpenAIError(400, message, 'invalid_request_error', 'unsupported_value', param);

/** OpenAI's error `type` for a status, as its API uses them. */
function typeFor(status: number): string {
  if (status === 401) return 'invalid_request_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

export function openAIErrorBody(message: string, type: string, param: string | null, code: string | null): OpenAIErrorBody {
  return { error: { message, type, param, code } };
}

/** Rewrites one platform error response (`{"message"}`, Laravel 422...) into OpenAI's shape. */
async function rewrite(res: Response, err: Error | undefined, method: string, path: string): Promise<Response> {
  let body: any = null;
  try {
    body = await res.clone().json();
  } catch {}
  if (body && typeof body.error === 'object' && body.error !== null) return res; // already OpenAI's shape
  let status = res.status;
  let message: string = typeof body?.message === 'string' ? body.message : 'Request failed.';
  let type = typeFor(status);
  let code: string | null = null;
  let param: string | null = null;
  const headers = new Headers({ 'content-type': 'application/json' });
  if (err instanceof OpenAIError) {
    ({ type, param } = err);
    code = err.openaiCode;
    message = err.message;
    for (const [k, v] of Object.entries(err.headers)) headers.set(k, v);
  } else if (err instanceof ValidationError) {
    // OpenAI answers invalid parameters with 400 (the SDK's BadRequestError), naming the parameter.
    status = 400;
    param = Object.keys(err.errors)[0] ?? null;
    code = 'invalid_value';
  } else if (status === 401) {
    code = 'invalid_api_key';
    message = 'Invalid or missing API key. Send an Agent Desk key as `Authorization: Bearer <key>`.';
  } else if (status === 404 && !err && message === 'Not found.') {
    message = `Invalid URL (${method} ${path}).`;
  } else if (err instanceof PlatformError) {
    code = err.code;
  } else if (status === 413) {
    code = 'request_too_large';
  } else if (status >= 500 && typeof body?.error === 'string') {
    message = `${message}: ${body.error}`;
  }
  return new Response(JSON.stringify(openAIErrorBody(message, type, param, code)), { status, headers });
}

/**
 * OpenAI clients read errors as `{"error": {...}}`. This middleware, mounted on the OpenAI-compatible
 * paths before auth, rewrites whatever error the platform produced there (auth 401, validation,
 * 404, 413, 500) into that shape, leaving every other route's body alone.
 */
export function openAIErrorShape(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 400) return;
    const type = c.res.headers.get('content-type') ?? '';
    if (!type.includes('json')) return;
    // Hono's `res` setter carries the old response's headers over (WWW-Authenticate, Retry-After,
    // Allow, CORS): keep those, but not a length that described the old body.
    c.res = await rewrite(c.res, c.error, c.req.method, c.req.path);
    c.res.headers.delete('content-length');
  };
}
