import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import type { AppEnv } from './env.js';
import type { Operation, Parsed } from '../../contract/operation.js';
import { ErrorBody } from '../../contract/common.js';
import { errorResponses, jsonBodyOf } from './router.js';
import { ValidationError } from '../../kernel/errors.js';
import { laravelErrors } from '../../contract/messages.js';
import { jsonText } from '../../kernel/frozen.js';

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

/**
 * The OpenAPI entry of a declared operation. `twin`, an operation on the same method and path told
 * apart by a header (the document has one entry per method and path), adds its answer as the
 * other shape of the JSON and that header as an optional parameter.
 */
function routeOf(name: string, op: Operation, twin?: Operation) {
  const answer = twin ? z.union([op.response, twin.response]) : op.response;
  const ok: Record<string, unknown> = op.onlyBytes || op.onlyEvents ? {} : { 'application/json': { schema: answer } };
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
    ...(op.description || twin ? { description: [op.description, twin && `With the \`${twin.onlyWithHeader}\` header: ${twin.summary}.`].filter(Boolean).join('\n\n') } : {}),
    ...(op.deprecated ? { deprecated: true } : {}),
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(op.headers ? { headers: op.headers } : twin?.onlyWithHeader ? { headers: z.object({ [twin.onlyWithHeader]: z.string().optional() }) } : {}),
      ...(op.body ? { body: { ...jsonBodyOf(op.body).body, required: !op.bodyOptional } } : {}),
    },
    responses: responses as never,
  });
}

/** The operation a route serves, kept on its handler: the error mapper reads the matched one's dialect. */
const OPERATION = Symbol('operation');
/** On a door's catch-all: the dialect of the paths under it that no operation serves. */
const DOOR = Symbol('door');
/** Hono's mark on a handler it wrapped when mounting a router that has its own error handler. */
const COMPOSED_HANDLER = '__COMPOSED_HANDLER';

type Dialect = NonNullable<Operation['dialect']>;
type Marked = ((c: Context<AppEnv>, next: Next) => unknown) & { [OPERATION]?: Operation; [DOOR]?: Dialect; [COMPOSED_HANDLER]?: Marked };

/** Whether an operation answers this request: one that is told apart by a header needs that header. */
const answers = (op: Operation, c: Context) => !op.onlyWithHeader || c.req.header(op.onlyWithHeader) !== undefined;

/**
 * The declared operation that answers the request, if a route of one matched (middleware runs
 * before it, so this is known from the first middleware on: a 401 is in its dialect too).
 */
export function matchedOperation(c: Context): Operation | undefined {
  for (const r of c.req.matchedRoutes) {
    const h = r.handler as Marked;
    const op = h[OPERATION] ?? h[COMPOSED_HANDLER]?.[OPERATION];
    if (op && answers(op, c)) return op;
  }
  return undefined;
}

/**
 * The error dialect of a request, from what matched it: the operation's own, else the door's whose
 * catch-all matched (the longest path wins: /v1/messages/* over /v1/*), else the `/api` envelope.
 */
export function dialectOf(c: Context): Dialect | undefined {
  const op = matchedOperation(c);
  if (op) return op.dialect;
  let best: { dialect: Dialect; length: number } | undefined;
  for (const r of c.req.matchedRoutes) {
    const h = r.handler as Marked;
    const d = h[DOOR] ?? h[COMPOSED_HANDLER]?.[DOOR];
    if (d && (!best || r.path.length > best.length)) best = { dialect: d, length: r.path.length };
  }
  return best?.dialect;
}

/**
 * A door's catch-all under `path` (register it after the door's operations): a path there that no
 * operation serves gets the app's 404 or 405, in the door's dialect.
 */
export function serveDoor(r: OpenAPIHono<AppEnv>, path: string, dialect: Dialect): void {
  const h: Marked = (c) => c.notFound();
  h[DOOR] = dialect;
  r.all(path, h as never);
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

/**
 * The JSON body as the operation's schema reads it. By the time it runs, the body middleware has
 * labelled every body JSON but a multipart one, which a JSON operation refuses (415).
 */
async function readBody(op: Operation & { body: z.ZodType }, c: Context<AppEnv>): Promise<unknown> {
  const type = c.req.raw.headers.get('content-type');
  if (!type) return parsePart(op.body, {});
  if (!JSON_TYPE.test(type.split(';')[0].trim())) throw new HTTPException(415, { message: 'Unsupported Media Type' });
  let value: unknown;
  try {
    value = await c.req.json();
  } catch {
    throw new HTTPException(400, { message: 'Malformed JSON in request body' });
  }
  return parsePart(op.body, value);
}

/** The query as Hono's validator reads it: a repeated name gives a list. */
function queryOf(c: Context<AppEnv>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(c.req.queries())) out[k] = v.length === 1 ? v[0] : v;
  return out;
}

/** Per router: operations told apart by a header, waiting for the operation they share a method and path with. */
const twins = new WeakMap<object, Map<string, Operation>>();
function twinsOf(r: object): Map<string, Operation> {
  let m = twins.get(r);
  if (!m) twins.set(r, (m = new Map()));
  return m;
}

/**
 * Registers the handlers of a group of operations on a router: one route per operation, whose
 * handler parses the request parts with the operation's schemas (failures are the contract's 422;
 * in the order query, path, headers, body), calls the handler and writes its answer. The document
 * gets the operation's entry; a body the handler reads itself (`upload`) is only described there.
 * Parsing here, synchronously, rather than in a validator middleware per part keeps the request
 * path to one handler after the shared middleware.
 */
export function serveOperations<T extends Record<string, Operation>>(r: OpenAPIHono<AppEnv>, ops: T, handlers: Handlers<T>): void {
  for (const [name, op] of Object.entries(ops)) {
    const handler = handlers[name] as Handler<Operation>;
    const status = op.status ?? 200;
    const run: Marked = async (c: Context<AppEnv>, next: Next) => {
      // Told apart by a header: without it, the next operation on this method and path answers.
      if (!answers(op, c)) return next();
      const query = op.query ? parsePart(op.query, queryOf(c)) : undefined;
      const params = op.params ? parsePart(op.params, c.req.param()) : undefined;
      if (op.headers) parsePart(op.headers, c.req.header());
      const body = op.body && !op.upload ? await readBody(op as Operation & { body: z.ZodType }, c) : undefined;
      const out = await handler({ params, query, body, userId: c.get('principal').userId } as Parsed<Operation> & { userId: number }, c);
      // As c.json writes it (a fresh headers object: the Node adapter adds Content-Length to it);
      // an answer frozen whole (a cached agent) is serialized once.
      return out instanceof Response ? out : c.body(jsonText(out), status, { 'Content-Type': 'application/json' });
    };
    run[OPERATION] = op;
    // A header-told twin is served first (its handler passes other requests on) and documented with the other.
    const key = `${op.method} ${op.path}`;
    if (op.onlyWithHeader) {
      twinsOf(r).set(key, op);
      r.on(op.method.toUpperCase(), op.path.replace(/\{(\w+)\}/g, ':$1'), run as never);
      continue;
    }
    const route = routeOf(name, op, twinsOf(r).get(key));
    if (op.upload) {
      // The document lists the JSON alternative (if any) beside the multipart body.
      const content = { ...(op.body ? { 'application/json': { schema: op.body } } : {}), [op.upload.contentType]: { schema: op.upload.schema } };
      r.openAPIRegistry.registerPath({ ...route, request: { ...route.request, body: { content, required: true } } });
    } else {
      r.openAPIRegistry.registerPath(route);
    }
    r.on(op.method.toUpperCase(), op.path.replace(/\{(\w+)\}/g, ':$1'), run as never);
  }
}
