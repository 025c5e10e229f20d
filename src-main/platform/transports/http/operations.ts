import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from './env.js';
import type { Operation, Parsed } from '../../contract/operation.js';
import { ErrorBody } from '../../contract/common.js';
import { errorResponses, jsonBodyOf } from './router.js';
import { ValidationError } from '../../kernel/errors.js';
import { laravelErrors } from '../../contract/messages.js';

/** A handler: the operation's parsed input (and the request's context) in, its answer out, or a Response (a stream, bytes). */
export type Handler<O extends Operation> = (input: Parsed<O> & { userId: number }, c: Context<AppEnv>) => z.input<O['response']> | Response | Promise<z.input<O['response']> | Response>;

/** One handler per declared operation: a missing one, or one for an operation not declared, does not compile. */
export type Handlers<T extends Record<string, Operation>> = { [K in keyof T]: Handler<T[K]> };

const json = (schema: z.ZodType, description: string) => ({ content: { 'application/json': { schema } }, description });
const success = { 200: 'OK', 201: 'Created', 202: 'Accepted' } as const;

/** A request part no validator saw (an upload's route has none), parsed with the same 422. */
function parsePart(schema: z.ZodType, data: unknown): unknown {
  const r = schema.safeParse(data);
  if (!r.success) throw new ValidationError(laravelErrors(r.error.issues, data));
  return r.data;
}

/** The route (validation and OpenAPI entry) of a declared operation. */
function routeOf(name: string, op: Operation) {
  const ok: Record<string, unknown> = op.onlyBytes || op.onlyEvents ? {} : { 'application/json': { schema: op.response } };
  if (op.events) ok['text/event-stream'] = { schema: op.events };
  if (op.bytes) ok[op.bytes] = { schema: { type: 'string', format: 'binary' } };
  const responses: Record<number, unknown> = { [op.status ?? 200]: { content: ok, description: op.okDescription ?? success[op.status ?? 200] }, ...(op.dialect ? {} : errorResponses) };
  if (op.notFound) responses[404] = json(ErrorBody, `${op.notFound} not found`);
  for (const [status, [description, schema]] of Object.entries(op.errors ?? {})) responses[Number(status)] = json(schema, description);
  return createRoute({
    method: op.method,
    path: op.path,
    operationId: name,
    tags: [...op.tags],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.headers ? { headers: op.headers } : {}),
      ...(op.body ? { body: { ...jsonBodyOf(op.body).body, required: !op.bodyOptional } } : {}),
    },
    responses: responses as never,
  });
}

/**
 * Registers the handlers of a group of operations on a router. Request parts are validated by
 * the operation's schemas (failures are the contract's 422, see createRouter); a body the
 * handler reads itself (`upload`) is only described to the document.
 */
export function serveOperations<T extends Record<string, Operation>>(r: OpenAPIHono<AppEnv>, ops: T, handlers: Handlers<T>): void {
  for (const [name, op] of Object.entries(ops)) {
    const handler = handlers[name] as Handler<Operation>;
    const run = async (c: Context<AppEnv>) => {
      const v = c.req as unknown as { valid(part: string): unknown };
      const input = {
        params: op.params ? (op.upload ? parsePart(op.params, c.req.param()) : v.valid('param')) : undefined,
        query: op.query ? (op.upload ? parsePart(op.query, c.req.query()) : v.valid('query')) : undefined,
        // Left out (no content type), an optional body is read as `{}` by its schema, so the handler's type holds.
        body: op.body && !op.upload ? (op.bodyOptional && !c.req.header('content-type') ? parsePart(op.body, {}) : v.valid('json')) : undefined,
        userId: c.get('principal').userId,
      } as Parsed<Operation> & { userId: number };
      const out = await handler(input, c);
      return out instanceof Response ? out : c.json(out as object, op.status ?? 200);
    };
    if (op.upload) {
      // The document lists the JSON alternative (if any) beside the multipart body.
      const content = { ...(op.body ? { 'application/json': { schema: op.body } } : {}), [op.upload.contentType]: { schema: op.upload.schema } };
      const route = routeOf(name, op);
      r.openAPIRegistry.registerPath({ ...route, request: { ...route.request, body: { content, required: true } } });
      r.on(op.method.toUpperCase(), op.path.replace(/\{(\w+)\}/g, ':$1'), run);
    } else {
      r.openapi(routeOf(name, op), run as never);
    }
  }
}
