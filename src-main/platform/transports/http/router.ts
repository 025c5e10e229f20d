import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env.js';
import { ValidationError } from '../../kernel/errors.js';
import { laravelErrors } from '../../contract/messages.js';
import { ErrorBody, ValidationErrorBody } from '../../contract/common.js';

/** A router whose request validation fails with the contract's 422 envelope. */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    // The validator hands the hook the raw input as `data` (untyped on failure): it tells "missing" from "wrong type".
    defaultHook: (result) => {
      if (!result.success) throw new ValidationError(laravelErrors(result.error.issues, (result as { data?: unknown }).data));
    },
  });
}

const json = <T>(schema: T, description: string) => ({ content: { 'application/json': { schema } }, description });

/** Error responses shared by every operation, for the OpenAPI document. */
export const errorResponses = {
  401: json(ErrorBody, 'Missing or invalid bearer key: `{"message":"Unauthenticated."}`'),
  422: json(ValidationErrorBody, 'Validation failed'),
} as const;
export const notFound = (what: string) => ({ 404: json(ErrorBody, `${what} not found`) });
export const ok = <T>(schema: T, description = 'OK') => ({ 200: json(schema, description) });
export const jsonBodyOf = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });
