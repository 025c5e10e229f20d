import type { ExecuteRequest } from '../../contract/executions.js';
import { ValidationError } from '../../kernel/errors.js';

/**
 * Compare: one user turn answered by several models, each its own execution, siblings in the
 * session's tree. These are the request-side rules; ExecutionsService.compare starts them.
 */

/** The execute request with `model` answered by `model` (the body's own answers otherwise kept). */
export function withModel(body: ExecuteRequest, model: string): ExecuteRequest {
  return { ...body, answers: { ...body.answers, model } };
}

/** The compare body without its own keys: the rest is an execute body (its answers, messages, ids). */
export function executePart(raw: Record<string, unknown>): Record<string, unknown> {
  const { models: _models, stream: _stream, ...rest } = raw;
  return rest;
}

/** A model's 422 (the `model` answer refused) as the compare body names it: `models.<i>`. */
export function asModelsError(err: unknown, index: number): unknown {
  if (!(err instanceof ValidationError) || !err.errors.model) return err;
  const errors: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(err.errors)) {
    if (k === 'model') errors[`models.${index}`] = v.map((m) => m.replace(/\bThe (selected )?model\b/, `The $1models.${index}`));
    else errors[k] = v;
  }
  return new ValidationError(errors);
}
