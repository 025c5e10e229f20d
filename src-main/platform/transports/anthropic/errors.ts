import { ValidationError } from '../../kernel/errors.js';
import { RouteNotFoundError, errorHeaders, type ErrorDialect } from '../http/errors.js';
import type { AnthropicErrorBody } from '../../contract/anthropic-messages.js';
import { OpenAIError } from '../gateway/errors.js';

/** Anthropic's error `type` for a status, as its API uses them. */
export function anthropicType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export const anthropicErrorBody = (status: number, message: string): AnthropicErrorBody => ({ type: 'error', error: { type: anthropicType(status), message } });

/**
 * Anthropic clients (the SDK, Claude Code) read errors as `{"type": "error", "error": {type,
 * message}}`: the dialect of the Anthropic operations, rendered from the same platform error as every path.
 * A parameter the error names is put in the message, as Anthropic writes it (`messages.1.content: ...`).
 */
export const anthropicDialect: ErrorDialect = (err, c) => {
  const headers = errorHeaders(err);
  let status = err.status;
  let message = err.message;
  if (err instanceof OpenAIError) {
    for (const [k, v] of Object.entries(err.headers)) headers[k] = v;
    if (err.param) message = `${err.param}: ${message}`;
  } else if (err instanceof ValidationError) {
    status = 400;
    const [field, list] = Object.entries(err.errors)[0] ?? ['', []];
    message = field ? `${field}: ${list[0] ?? 'invalid value'}` : err.message;
  } else if (status === 401) {
    message = 'Invalid or missing API key. Send an Agent Desk key as `x-api-key: <key>` or `Authorization: Bearer <key>`.';
  } else if (err instanceof RouteNotFoundError) {
    message = c ? `Not found: ${c.req.method} ${c.req.path}.` : 'Not found.';
  }
  return new Response(JSON.stringify(anthropicErrorBody(status, message)), { status, headers });
};
