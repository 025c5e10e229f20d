import { z } from 'zod';
import type { Operation } from '../../contract/operation.js';

/** A JSON Schema node, as tools/list carries it. */
export type JsonSchema = { [key: string]: unknown };

/** The request parts a tool's arguments come from, in the order the HTTP layer validates them. */
export const PARTS = ['params', 'query', 'headers', 'body'] as const;
export type Part = (typeof PARTS)[number];

/** Where one argument goes: the request part and that part's field name. */
export interface ArgumentPlace {
  part: Part;
  field: string;
}

const DRAFT_7 = 'http://json-schema.org/draft-07/schema#';

/**
 * A zod schema as JSON Schema (draft-07, the dialect MCP clients have read from this server), every
 * `$ref` inlined: a tool's schema is read alone, not beside its siblings. `input` is what a caller
 * sends; `output` what the schema makes of it.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const doc = z.toJSONSchema(schema, { io, target: 'draft-7' }) as JsonSchema;
  const defs = (doc.definitions ?? {}) as Record<string, JsonSchema>;
  const inline = (node: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error('A recursive schema cannot be a tool argument');
    if (Array.isArray(node)) return node.map((n) => inline(n, depth));
    if (!node || typeof node !== 'object') return node;
    const { $ref, ...rest } = node as JsonSchema;
    const name = typeof $ref === 'string' ? /^#\/definitions\/(.+)$/.exec($ref)?.[1] : undefined;
    const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, depth)])) as JsonSchema;
    // `Update = Create.meta({id})` writes `allOf: [Create]`: one schema, said once.
    const only = Array.isArray(own.allOf) && own.allOf.length === 1 ? (own.allOf[0] as JsonSchema) : undefined;
    if (only) delete own.allOf;
    const base = name ? (inline(defs[name], depth + 1) as JsonSchema) : only;
    return base ? { ...base, ...own } : own;
  };
  const { $schema: _, definitions: __, ...root } = inline(doc, 0) as JsonSchema;
  return root;
}

/** The parts of an operation that hold arguments, with their zod object schemas. */
export function partsOf(name: string, op: Operation): [Part, z.ZodObject][] {
  if (op.upload || op.onlyBytes || op.onlyEvents) throw new Error(`${name}: an MCP tool takes JSON arguments and answers JSON`);
  return PARTS.flatMap((part): [Part, z.ZodObject][] => {
    const schema = op[part];
    if (!schema) return [];
    if (!(schema instanceof z.ZodObject)) throw new Error(`${name}: the ${part} of an MCP tool's operation must be an object schema`);
    return [[part, schema]];
  });
}

/** Argument name -> where it goes in the request, from the operation's fields and its tool's renames. */
export function argumentPlaces(name: string, op: Operation): Map<string, ArgumentPlace> {
  const renamed = new Map(Object.entries(op.mcp?.args ?? {}).map(([arg, field]) => [field, arg]));
  const places = new Map<string, ArgumentPlace>();
  for (const [part, schema] of partsOf(name, op)) {
    for (const field of Object.keys(schema.shape)) {
      const arg = renamed.get(field) ?? field;
      if (places.has(arg)) throw new Error(`${name}: two fields of the operation would be the argument "${arg}"`);
      places.set(arg, { part, field });
    }
  }
  for (const [arg, field] of Object.entries(op.mcp?.args ?? {})) {
    if (places.get(arg)?.field !== field) throw new Error(`${name}: the argument "${arg}" names "${field}", which the operation does not take`);
  }
  return places;
}

/**
 * The tool's `inputSchema`: the operation's path, query, header and body fields merged into one
 * flat object (an argument renamed as the tool says), each field's schema as the operation's own
 * schema generates it. The body is JSON the caller sends as it is: its input side. A path, query or
 * header value is text on the wire that the operation's schema reads into a value (`"2"` into the
 * page 2, checked against 1..50): the tool's argument is that value, so the field's schema is the
 * output side (its bounds and defaults), and what must be sent is what the input side requires.
 */
export function toolInputSchema(name: string, op: Operation): JsonSchema {
  const places = argumentPlaces(name, op);
  const argOf = new Map([...places].map(([arg, p]) => [`${p.part}.${p.field}`, arg]));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [part, schema] of partsOf(name, op)) {
    const sent = jsonSchemaOf(schema, 'input');
    const read = part === 'body' ? sent : jsonSchemaOf(schema, 'output');
    for (const [field, s] of Object.entries((read.properties ?? {}) as Record<string, JsonSchema>)) properties[argOf.get(`${part}.${field}`)!] = s;
    for (const field of (sent.required ?? []) as string[]) required.push(argOf.get(`${part}.${field}`)!);
  }
  return { $schema: DRAFT_7, type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** The `inputSchema` of a tool declared by a zod object in the contract (one that is not an operation). */
export function declaredInputSchema(schema: z.ZodObject): JsonSchema {
  return { $schema: DRAFT_7, ...jsonSchemaOf(schema) };
}
