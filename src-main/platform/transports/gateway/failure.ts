import { OpenAIError } from './errors.js';

/** What a failed execution means to a /v1 client (OpenAI's fields, which Anthropic's dialect reads too): its status, type and whether a retry could help. */
export function executionFailure(executionId: number, error: { message: string; code: string } | null, status: string): OpenAIError {
  const code = error?.code ?? status;
  const message = error?.message ?? `The execution ended ${status}.`;
  // The execution is stored and billed: a blind retry would run (and bill) a new one, so never ask for it.
  const headers = { 'x-should-retry': 'false', 'x-agent-desk-execution-id': String(executionId) };
  if (status === 'canceled') return new OpenAIError(409, message, 'invalid_request_error', 'canceled', null, headers);
  if (code === 'image_unsupported') return new OpenAIError(400, message, 'invalid_request_error', code, 'messages', headers);
  if (code === 'model_unavailable' || code === 'tool_unavailable' || code === 'unsupported') {
    return new OpenAIError(400, message, 'invalid_request_error', code, code === 'model_unavailable' ? 'model' : null, headers);
  }
  if (code === 'interrupted') return new OpenAIError(503, message, 'server_error', code, null, headers);
  return new OpenAIError(502, message, 'server_error', code, null, headers);
}
