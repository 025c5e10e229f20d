import { z } from 'zod';
import { AgentCreate, AgentType } from '../../contract/agents.js';
import { CollectionBody, MemoryCreate } from '../../contract/memories.js';
import { WebhookDescription, WebhookEvents, WebhookStatus, WebhookUrl } from '../../contract/webhooks.js';
import { ToolServers } from '../../contract/tools.js';
import { FILE_STATUSES } from '../../contract/files.js';
import { FILE_KINDS } from '../../ingest/kinds.js';
import type { ExportTables, Row } from './store.js';

/**
 * The rows of an export archive, as the database stores them, checked with the API's own field
 * schemas (contract/): what the API would refuse in a request, an archive cannot write either.
 * Timestamps are integer microseconds; JSON columns are text that must parse to what the API
 * accepts. Every column is listed: a column this Agent Desk does not know is refused (import.ts
 * writes only what a schema here returns), so a column a later migration adds must be listed here.
 */
const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** Microseconds since 1970, up to 2100: a string, a float or a date in seconds is refused. */
const micros = z.number().int().min(0).max(4_102_444_800_000_000);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const credits = z.number().min(0).max(1e12);

/** A text column holding JSON that must parse and match `schema`. */
const jsonText = <T extends z.ZodType>(schema: T, what: string) =>
  z.string().transform((s, ctx) => {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: `is not JSON (${what} expected)` });
      return z.NEVER;
    }
    const r = schema.safeParse(v);
    if (!r.success) {
      const i = r.error.issues[0];
      ctx.addIssue({ code: 'custom', message: `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}` });
      return z.NEVER;
    }
    return s;
  });

const opt = <T extends z.ZodType>(t: T) => t.optional();
const api = AgentCreate.shape;

const agents = z.strictObject({
  id,
  workspace_id: opt(id),
  created_by: opt(id),
  template_id: opt(z.string().max(200).nullable()),
  title: api.title.unwrap(),
  description: api.description.unwrap(),
  long_description: api.long_description.unwrap(),
  visibility: api.visibility.unwrap(),
  slug: api.slug.unwrap(),
  active: api.active.unwrap(),
  type: AgentType,
  questions: jsonText(api.questions.unwrap(), 'a list of questions'),
  instructions: api.instructions.unwrap(),
  created_at: micros,
  updated_at: micros,
  source: opt(z.enum(['local', 'remote'])),
  remote_id: opt(id.nullable()),
  remote_synced_at: opt(micros.nullable()),
  share_context: opt(z.union([z.literal(0), z.literal(1)])),
  /** MCP server ids of the source machine: checked, then dropped on import (refs.ts). */
  tool_servers: opt(jsonText(ToolServers, 'a list of tool servers')),
});

const memory_collections = z.strictObject({
  id,
  user_id: opt(id),
  name: CollectionBody.shape.name,
  /** Read, not kept: the import puts every memory in a new collection of its own, out of context. */
  in_context: opt(z.union([z.literal(0), z.literal(1)])),
  created_at: micros,
  updated_at: micros,
});

const memories = z.strictObject({ id, user_id: opt(id), collection_id: id, memory: MemoryCreate.shape.memory, credits: opt(credits), created_at: micros, updated_at: micros });

const webhooks = z.strictObject({
  id,
  agent_id: id,
  user_id: opt(id),
  url: WebhookUrl,
  method: z.enum(['POST']),
  status: WebhookStatus,
  /** Left out of exports unless asked for; the import then makes a new one. */
  secret: opt(z.string().min(1).max(500)),
  success_count: opt(count),
  failure_count: opt(count),
  created_at: micros,
  updated_at: micros,
  deleted_at: opt(micros.nullable()),
  events: opt(jsonText(WebhookEvents, 'a list of webhook events')),
  description: opt(WebhookDescription),
});

const EXTENSIONS = Object.values(FILE_KINDS).flat() as string[];
const files = z
  .strictObject({
    id,
    workspace_id: opt(id),
    user_id: opt(id.nullable()),
    filename: z.string().min(1).max(1000),
    ext: z.string().refine((e) => EXTENSIONS.includes(e), 'is not an accepted file extension'),
    kind: z.enum(Object.keys(FILE_KINDS) as [keyof typeof FILE_KINDS, ...(keyof typeof FILE_KINDS)[]]),
    bytes: count,
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'is not a SHA-256 in hex'),
    status: z.enum(FILE_STATUSES),
    credits: opt(credits),
    error: opt(z.string().max(10_000).nullable()),
    metadata: opt(jsonText(z.record(z.string(), z.unknown()), 'an object').nullable()),
    passages: opt(count),
    created_at: micros,
    updated_at: micros,
    processed_at: opt(micros.nullable()),
  })
  .refine((f) => (FILE_KINDS[f.kind] as readonly string[]).includes(f.ext), { message: 'does not match the file extension', path: ['kind'] });

/** `fkey` is a generated column: exports made by reading every column hold it; accepted, never written. */
const file_passages = z.strictObject({ id: opt(id), file_id: id, ordinal: count, text: z.string().max(100_000), fkey: opt(z.string().max(40)) });

const agent_files = z.strictObject({ agent_id: id, file_id: id, created_at: opt(micros) });

export const ROW_SCHEMAS: Record<keyof ExportTables, z.ZodType> = { agents, memory_collections, memories, webhooks, files, file_passages, agent_files };

/** A sentence naming the table, the row and, where one is at fault, the column. */
function where(table: keyof ExportTables, i: number, row: Row): string {
  const rowId = row.id;
  return `${table}.json row ${i + 1}${typeof rowId === 'number' || typeof rowId === 'string' ? ` (id ${String(rowId).slice(0, 20)})` : ''}`;
}

/**
 * One row parsed by its table's schema: the row as the schema returns it (only listed columns),
 * or one sentence naming the table, the row (`i`, from 0) and the column at fault.
 */
export function parseRow(table: keyof ExportTables, i: number, row: Row): { row: Row } | { error: string } {
  const r = ROW_SCHEMAS[table].safeParse(row);
  if (r.success) return { row: r.data as Row };
  const issue = r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const column = issue.keys[0].slice(0, 60);
    return { error: `The archive holds invalid data: ${where(table, i, row)}, column "${column}" is not one Agent Desk knows.` };
  }
  const column = issue.path.length ? String(issue.path[0]) : null;
  const shown = column && row[column] === undefined ? 'is missing' : issue.message;
  return { error: `The archive holds invalid data: ${where(table, i, row)}, ${column ? `${column}: ` : ''}${shown.replace(/\.$/, '')}.` };
}

/** Every row of a table parsed by its schema (parseRow), or the first invalid row's sentence. */
export function parseTable(table: keyof ExportTables, rows: Row[]): { rows: Row[] } | { error: string } {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = parseRow(table, i, rows[i]);
    if ('error' in r) return r;
    out.push(r.row);
  }
  return { rows: out };
}
