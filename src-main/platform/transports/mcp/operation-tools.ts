import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from '../../contract/operation.js';
import { pathOf, queryOf } from '../../contract/operation.js';
import { laravelErrors, say } from '../../contract/messages.js';
import { ValidationError } from '../../kernel/errors.js';
import { argumentPlaces, toolInputSchema, type ArgumentPlace, type JsonSchema, type Part } from './input-schema.js';
import { answerResult, failureResult } from './results.js';
import type { Tool, ToolContext } from './tools.js';

/** What the app answered an operation's request: its status and its JSON (or text, when not JSON). */
export interface Answer {
  status: number;
  body: unknown;
}

/** Reads a tool's answer: a result of its own, or undefined for the operation's JSON as it is. */
export type Presenter = (answer: Record<string, unknown>, args: Record<string, unknown>, ctx: ToolContext, signal?: AbortSignal) => Promise<CallToolResult | undefined>;

const places = new WeakMap<Operation, Map<string, ArgumentPlace>>();
const schemas = new WeakMap<Operation, JsonSchema>();

/** Built once per operation: a stateless /mcp request builds its server, and its tools, anew. */
function once<V>(map: WeakMap<Operation, V>, op: Operation, make: () => V): V {
  let v = map.get(op);
  if (v === undefined) map.set(op, (v = make()));
  return v;
}

/** The same hints for every tool of a method: what an HTTP method already promises. */
function annotationsOf(op: Operation): ToolAnnotations | undefined {
  if (op.method === 'get') return { readOnlyHint: true };
  if (op.method === 'delete') return { destructiveHint: true, idempotentHint: true };
  if (op.method === 'put' || op.method === 'patch') return { idempotentHint: true };
  return undefined;
}

/**
 * Sends an operation's request, built from a tool's flat arguments, through the platform's own app
 * with the MCP caller as its principal (passed in env, which HTTP cannot forge). Host guard, auth,
 * body limits, validation, the handler and its error envelope are the operation's own. An argument
 * no field takes goes in the body (or the query, without one), where the operation's schema decides.
 */
export async function request(ctx: ToolContext, name: string, op: Operation, args: Record<string, unknown>, signal?: AbortSignal): Promise<Answer> {
  const known = once(places, op, () => argumentPlaces(name, op));
  // Without a prototype: an argument named `__proto__` is a field like any other (the schema drops it).
  const part = () => Object.create(null) as Record<string, unknown>;
  const parts = { params: part(), query: part(), headers: part(), body: part() };
  for (const [arg, value] of Object.entries(args)) {
    const place = known.get(arg);
    if (place) parts[place.part][place.field] = value;
    else parts[op.body ? 'body' : 'query'][arg] = value;
  }
  // The few refusals made here name the argument as the caller named it (`id`, not the path's `memoryId`).
  const argOf = (part: Part, field: string) => [...known].find(([, p]) => p.part === part && p.field === field)?.[0] ?? field;
  const refused = (err: ValidationError): Answer => ({ status: err.status, body: { message: err.message, errors: err.errors } });
  // Without a path value there is no request to send: its absence is said as the operation's schema says it.
  const missing = op.params && Object.keys(op.params.shape).some((k) => parts.params[k] === undefined || parts.params[k] === null);
  const checked = missing ? op.params!.safeParse(parts.params) : undefined;
  if (checked && !checked.success) {
    const issues = checked.error.issues.map((i) => ({ ...i, path: [argOf('params', String(i.path[0])), ...i.path.slice(1)] }));
    return refused(new ValidationError(laravelErrors(issues, args)));
  }
  // A value a header or a path cannot carry (a line break, a lone surrogate) is refused as HTTP would refuse it.
  const headers = new Headers({ accept: 'application/json' });
  for (const [k, v] of Object.entries(parts.headers)) {
    try {
      if (v !== undefined && v !== null) headers.set(k, String(v));
    } catch {
      return refused(ValidationError.field(argOf('headers', k), say.invalid(argOf('headers', k))));
    }
  }
  let path: string;
  try {
    path = pathOf(op, parts.params);
  } catch {
    const arg = argOf('params', Object.keys(op.params?.shape ?? {})[0] ?? 'id');
    return refused(ValidationError.field(arg, say.invalid(arg)));
  }
  let body: string | undefined;
  if (op.body) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(parts.body);
  }
  const url = `http://localhost${op.base ?? '/api'}${path}${queryOf(parts.query)}`;
  const res = await ctx.platform.app.fetch(new Request(url, { method: op.method.toUpperCase(), headers, body, signal }), { trustedPrincipal: ctx.principal });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** The tool an operation marked for MCP is: its schema from the operation, its call the operation's request. */
export function operationTool(ctx: ToolContext, name: string, op: Operation & { mcp: NonNullable<Operation['mcp']> }, present?: Presenter): Tool {
  const renamed = new Map(Object.entries(op.mcp.args ?? {}).map(([arg, field]) => [field, arg]));
  return {
    name: op.mcp.tool,
    title: op.mcp.title,
    description: op.mcp.description,
    inputSchema: once(schemas, op, () => toolInputSchema(name, op)),
    annotations: annotationsOf(op),
    async call(args, signal) {
      const answer = await request(ctx, name, op, args, signal);
      if (answer.status >= 400) return failureResult(answer, renamed);
      if (present && answer.body && typeof answer.body === 'object') {
        const shown = await present(answer.body as Record<string, unknown>, args, ctx, signal);
        if (shown) return shown;
      }
      return answerResult(answer.body);
    },
  };
}

/** Every operation of these tables that is marked for MCP, as tools, in the tables' order. */
export function operationTools(ctx: ToolContext, tables: readonly Record<string, Operation>[], presenters: Readonly<Record<string, Presenter>> = {}): Tool[] {
  return tables.flatMap((table) =>
    Object.entries(table).flatMap(([name, op]) => (op.mcp ? [operationTool(ctx, name, op as Operation & { mcp: NonNullable<Operation['mcp']> }, presenters[op.mcp.tool])] : [])),
  );
}
