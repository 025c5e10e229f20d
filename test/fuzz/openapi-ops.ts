import type { Platform } from '../../src-main/platform/platform.js';
import { BASE } from '../api/helpers.js';

/** A JSON Schema node of the OpenAPI document (3.1 flavour), as far as the fuzzer reads it. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI path with `{name}` placeholders. */
  path: string;
  params: Param[];
  /** Media type → schema of the request body. */
  body: Record<string, Schema>;
  bodyRequired: boolean;
  /** Declared as needing no key (the document's own `security: []`). */
  isPublic: boolean;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The platform's own OpenAPI document, read the way any client reads it. */
export async function loadDoc(p: Platform): Promise<OpenApiDoc> {
  const res = await p.app.request(`${BASE}/api/openapi.json`, { headers: { host: '127.0.0.1:8787' } });
  if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
  return (await res.json()) as OpenApiDoc;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared: Param[] = item.parameters ?? [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const content: Record<string, { schema?: Schema }> = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        params: [...shared, ...(op.parameters ?? [])].map((x) => resolveParam(doc, x)),
        body: Object.fromEntries(Object.entries(content).map(([type, c]) => [type, c.schema ?? {}])),
        bodyRequired: !!op.requestBody?.required,
        isPublic: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return ops;
}

function resolveParam(doc: OpenApiDoc, p: any): Param {
  if (p.$ref) return resolveRef(doc, p.$ref) as Param;
  return p as Param;
}

export function resolveRef(doc: OpenApiDoc, ref: string): any {
  if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
  let node: any = doc;
  for (const part of ref.slice(2).split('/')) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  if (node === undefined) throw new Error(`dangling $ref ${ref}`);
  return node;
}

/** Follows `$ref`s (and folds `allOf`) until a concrete schema node. */
export function deref(doc: OpenApiDoc, s: Schema | undefined): Schema {
  let node: Schema = s ?? {};
  for (let i = 0; node.$ref && i < 20; i++) node = resolveRef(doc, node.$ref) as Schema;
  if (node.allOf?.length) {
    const parts = node.allOf.map((x) => deref(doc, x));
    return {
      ...node,
      allOf: undefined,
      type: node.type ?? parts.find((x) => x.type)?.type,
      properties: Object.assign({}, ...parts.map((x) => x.properties ?? {}), node.properties ?? {}),
      required: [...new Set([...(node.required ?? []), ...parts.flatMap((x) => x.required ?? [])])],
    };
  }
  return node;
}

export const opName = (o: Operation) => `${o.method} ${o.path}`;
