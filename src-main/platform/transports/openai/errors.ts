import { ValidationError } from '../../kernel/errors.js';
import { OpenAIError } from '../gateway/errors.js';
import { RouteNotFoundError, ServerFault, errorHeaders, type ErrorDialect } from '../http/errors.js';
import type { OpenAIErrorBody } from '../../contract/openai.js';

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

/**
 * OpenAI clients read errors as `{"error": {message, type, param, code}}`: the dialect of the
 * OpenAI-compatible paths, rendered from the same platform error every other path gets.
 */
export const openAIDialect: ErrorDialect = (err, c) => {
  const headers = errorHeaders(err);
  let status = err.status;
  let message = err.message;
  let type = typeFor(status);
  let code: string | null = err.code;
  let param: string | null = null;
  if (err instanceof OpenAIError) {
    ({ type, param } = err);
    code = err.openaiCode;
    for (const [k, v] of Object.entries(err.headers)) headers[k] = v;
  } else if (err instanceof ValidationError) {
    // OpenAI answers invalid parameters with 400 (the SDK's BadRequestError), naming the parameter.
    status = 400;
    type = typeFor(status);
    param = Object.keys(err.errors)[0] ?? null;
    code = 'invalid_value';
  } else if (status === 401) {
    code = 'invalid_api_key';
    message = 'Invalid or missing API key. Send an Agent Desk key as `Authorization: Bearer <key>`.';
  } else if (err instanceof RouteNotFoundError) {
    message = c ? `Invalid URL (${c.req.method} ${c.req.path}).` : 'Invalid URL.';
    code = null;
  } else if (status === 413) {
    code = 'request_too_large';
  } else if (err instanceof ServerFault) {
    message = `${message}: ${String(err.extra.error)}`;
  } else if (status === 405) {
    code = null;
  }
  return new Response(JSON.stringify(openAIErrorBody(message, type, param, code)), { status, headers });
};
