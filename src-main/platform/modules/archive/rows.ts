import { z } from 'zod';
import { AgentCreate, AgentType } from '../../contract/agents.js';
import { CollectionBody, MemoryCreate } from '../../contract/memories.js';
import { WebhookStatus, WebhookUrl } from '../../contract/webhooks.js';
import { FILE_STATUSES } from '../../contract/files.js';
import { FILE_KINDS } from '../../ingest/kinds.js';
import type { ExportTables, Row } from './store.js';

/**
 * The rows of an export archive, as the database stores them, checked with the API's own field
 * schemas (contract/): what the API would refuse in a request, an archive cannot write either.
 * Timestamps are integer microseconds; JSON columns are text that must parse to what the API
 * accepts. Columns not listed here pass through as plain values (see import.ts), so a column a
 * later migration adds that holds JSON must be listed here.
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

const agents = z.object({
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
});

const memory_collections = z.object({ id, user_id: opt(id), name: CollectionBody.shape.name, created_at: micros, updated_at: micros });

const memories = z.object({ id, user_id: opt(id), collection_id: id, memory: MemoryCreate.shape.memory, credits: opt(credits), created_at: micros, updated_at: micros });

const webhooks = z.object({
  id,
  agent_id: id,
  user_id: opt(id),
  url: WebhookUrl,
  method: z.enum(['POST']),
  status: WebhookStatus,
  secret: z.string().min(1).max(500),
  success_count: opt(count),
  failure_count: opt(count),
  created_at: micros,
  updated_at: micros,
  deleted_at: opt(micros.nullable()),
});

const EXTENSIONS = Object.values(FILE_KINDS).flat() as string[];
const files = z
  .object({
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

const file_passages = z.object({ id: opt(id), file_id: id, ordinal: count, text: z.string().max(100_000) });

const agent_files = z.object({ agent_id: id, file_id: id, created_at: opt(micros) });

export const ROW_SCHEMAS: Record<keyof ExportTables, z.ZodType> = { agents, memory_collections, memories, webhooks, files, file_passages, agent_files };

/**
 * The first invalid row of a table, as one sentence naming the table, the row and the column,
 * or null when every row is valid.
 */
export function firstBadRow(table: keyof ExportTables, rows: Row[]): string | null {
  const schema = ROW_SCHEMAS[table];
  for (let i = 0; i < rows.length; i++) {
    const r = schema.safeParse(rows[i]);
    if (r.success) continue;
    const issue = r.error.issues[0];
    const rowId = rows[i].id;
    const where = `${table}.json row ${i + 1}${typeof rowId === 'number' || typeof rowId === 'string' ? ` (id ${String(rowId).slice(0, 20)})` : ''}`;
    const column = issue.path.length ? String(issue.path[0]) : null;
    const shown = column && rows[i][column] === undefined ? 'is missing' : issue.message;
    return `The archive holds invalid data: ${where}, ${column ? `${column}: ` : ''}${shown.replace(/\.$/, '')}.`;
  }
  return null;
}
