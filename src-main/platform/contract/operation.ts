import type { z } from 'zod';

/**
 * One HTTP operation of the `/api` surface, declared once: the server registers a handler for it
 * (transports/http/operations.ts builds the route, its validation and its OpenAPI entry from
 * this), and the renderer calls it by name (`call(op, input)`): neither writes the path, the
 * query string or a body type again.
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Under `base`, OpenAPI-style: `/memories/{memoryId}`. */
  path: string;
  /**
   * Where `path` lives: `/api` unless `/v1` (the OpenAI- and Anthropic-compatible doors). The
   * server mounts the router serving these operations there; the renderer calls `base + path`.
   */
  base?: '/v1';
  tags: readonly string[];
  summary: string;
  description?: string;
  /** An older path kept for hosted clients (marked deprecated in the document). */
  deprecated?: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  /** A JSON body, validated before the handler runs; beside `upload`, the JSON alternative the handler reads itself. */
  body?: z.ZodType;
  /** The JSON body may be left out (the handler then gets the body schema's reading of `{}`); the document says it is not required. */
  bodyOptional?: boolean;
  /** A body the handler reads itself (multipart uploads are streamed, never parsed by a validator): its schema for the document. */
  upload?: { contentType: 'multipart/form-data'; schema: z.ZodType };
  /** The answer's JSON (status 200 unless `status`). */
  response: z.ZodType;
  status?: 200 | 201 | 202;
  /** The answer may instead be a stream of these events (`text/event-stream`). */
  events?: z.ZodType;
  /** The answer may instead be bytes of this type (an export). */
  bytes?: string;
  /** The answer is only ever `bytes`, never JSON (its `response` is then `z.never()`, so the handler must return a Response). */
  onlyBytes?: boolean;
  /** The answer is only ever the `events` stream, never JSON (its `response` is then `z.never()`, so the handler must return a Response). */
  onlyEvents?: boolean;
  /** The success answer's description in the document, when more than its status's word ("OK", "Created"). */
  okDescription?: string;
  /** The 404 the document lists, naming what was not found. */
  notFound?: string;
  /**
   * The error dialect when not the `/api` envelope, for clients of those tools: the error mapper
   * reads it from the operation the request matched (a 401 from the middleware included). `errors`
   * then documents every error, without the envelope's 401 and 422.
   */
  dialect?: 'openai' | 'anthropic';
  /**
   * The operation answers only requests that carry this header; another operation on the same
   * method and path answers the rest, and the document shows both in that one's entry (Anthropic's
   * clients list `/v1/models` with `anthropic-version`, OpenAI's without).
   */
  onlyWithHeader?: string;
  /** Other documented answers: status -> [description, body schema]. */
  errors?: Readonly<Record<number, readonly [string, z.ZodType]>>;
  /** Offered as a tool by the MCP server (transports/mcp builds the tool from the operation). */
  mcp?: McpTool;
}

/**
 * An operation offered as an MCP tool. The tool's arguments are the operation's path, query, header
 * and body fields merged flat, their JSON Schema generated from the operation's schemas; a call is
 * the operation's own request through the app, so its validation, errors and handler are the
 * operation's.
 */
export interface McpTool {
  /** The tool's name, which MCP clients call it by: keep it stable. */
  tool: string;
  title: string;
  description: string;
  /**
   * Arguments named otherwise than the operation's field, argument -> field: a path parameter or
   * header whose HTTP name a tool caller should not have to know (`id` for `memoryId`,
   * `workspace_id` for `x-workspace-id`), or a name the tool had before it was generated.
   */
  args?: Readonly<Record<string, string>>;
}

/** Keeps each operation's literal types (method, path, schemas) for handlers and the typed client. */
export const operations = <const T extends Record<string, Operation>>(ops: T): T => ops;

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
type InferIn<S> = S extends z.ZodType ? z.input<S> : undefined;

/** What a handler receives: the operation's parts, parsed by its schemas. */
export interface Parsed<O extends Operation> {
  params: Infer<O['params']>;
  query: Infer<O['query']>;
  /** Undefined beside `upload`: that handler reads its body itself. */
  body: O['upload'] extends object ? undefined : Infer<O['body']>;
}

/** Path values as callers hold them: an id may be a number (the path writes its digits). */
type PathInput<P> = { [K in keyof P]: P[K] extends string ? string | number : P[K] };

/** What a caller passes: the parts the operation declares, as their schemas take them. */
export type CallInput<O extends Operation> = (O['params'] extends z.ZodType ? { params: PathInput<InferIn<O['params']>> } : { params?: undefined }) &
  (O['query'] extends z.ZodType ? { query?: Partial<InferIn<O['query']>> } : { query?: undefined }) &
  (O['body'] extends z.ZodType ? { body: InferIn<O['body']> } : { body?: undefined }) & { headers?: Record<string, string> };

/** The answer's type. */
export type Answer<O extends Operation> = z.infer<O['response']>;

/** `/memories/{memoryId}` with `{memoryId: 3}` -> `/memories/3` (each value URL-encoded). */
export function pathOf(op: Pick<Operation, 'path'>, params: Record<string, unknown> | undefined): string {
  return op.path.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params?.[k];
    if (v === undefined || v === null) throw new Error(`${op.path} needs ${k}`);
    return encodeURIComponent(String(v));
  });
}

/** `?a=1&b=x` from a query object; empty, null and undefined values are left out. */
export function queryOf(query: Record<string, unknown> | undefined): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
