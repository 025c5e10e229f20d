/**
 * The response shapes of seeds/agent-platform-api.md, written from the spec's text (not from
 * the code), plus the extensions CONTRACT.md declares. Tests compare real responses to these.
 */
import { expect } from 'vitest';

/** `2026-11-21T08:52:01.123456Z`: agents, executions, webhooks. */
export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** `2026-11-21T08:52:01Z`: resources. */
export const ISO_SECONDS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

export const SHAPE_A_KEYS = ['data', 'meta'];
export const SHAPE_A_META_KEYS = ['current_page', 'from', 'last_page', 'per_page', 'to', 'total'];
export const SHAPE_B_KEYS = [
  'current_page', 'data', 'first_page_url', 'from', 'last_page', 'last_page_url', 'links',
  'next_page_url', 'path', 'per_page', 'prev_page_url', 'to', 'total',
];
export const LINK_KEYS = ['url', 'label', 'active'];
export const SHAPE_C_META_KEYS = ['current_page', 'last_page', 'total'];

export const RESOURCE_KEYS = ['id', 'title', 'description', 'created_at', 'updated_at'];
export const AGENT_KEYS = [
  'id', 'title', 'description', 'long_description', 'workspace_id', 'visibility', 'slug', 'active',
  'type', 'questions', 'created_at', 'updated_at', 'created_by',
];
/**
 * Additions to the agent (never replacing a spec'd field): `instructions` (CONTRACT.md "Agents"),
 * `source` and `share_context` (the remote-platform work). A new one must be added here on purpose.
 */
export const AGENT_EXT_KEYS = ['instructions', 'source', 'share_context', 'tool_servers'];
export const QUESTION_KEYS = ['type', 'name', 'description', 'required'];
export const MEMORY_KEYS = ['id', 'user_id', 'memory', 'credits', 'collection_id'];
export const COLLECTION_KEYS = ['id', 'user_id', 'name'];
export const COLLECTION_LISTED_KEYS = [...COLLECTION_KEYS, 'display_name', 'in_context'];
export const WEBHOOK_KEYS = [
  'id', 'template_id', 'user_id', 'url', 'method', 'status', 'success_count', 'failure_count',
  'created_at', 'updated_at', 'deleted_at', 'events', 'description',
];
/** The spec's create shape, plus `secret`, `events` and `description` (CONTRACT.md "Webhooks", "Webhooks from hosted clients", ext). */
export const WEBHOOK_CREATED_KEYS = ['template_id', 'user_id', 'url', 'method', 'status', 'updated_at', 'created_at', 'id', 'events', 'description', 'secret'];

/** The spec's "Message texts observed in success responses". */
export const MESSAGES = {
  createMemory: 'Memory created successfully!',
  updateMemory: 'Memory updated successfully!',
  deleteMemory: 'Memory deleted successfully!',
  listMemories: 'Memories fetched successfully!',
  listCollections: 'success',
  createCollection: 'Collection created successfully',
  updateCollection: 'Collection updated successfully',
} as const;

export const sorted = (o: object) => Object.keys(o).sort();
export const keysOf = (list: string[]) => [...list].sort();

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const intOrNull = (v: unknown) => v === null || isInt(v);
const strOrNull = (v: unknown) => v === null || typeof v === 'string';

export function expectShapeA(body: any): void {
  expect(sorted(body)).toEqual(keysOf(SHAPE_A_KEYS));
  expect(Array.isArray(body.data)).toBe(true);
  expect(sorted(body.meta)).toEqual(keysOf(SHAPE_A_META_KEYS));
  for (const k of ['current_page', 'last_page', 'per_page', 'total']) expect(isInt(body.meta[k]), k).toBe(true);
  expect(intOrNull(body.meta.from) && intOrNull(body.meta.to)).toBe(true);
}

export function expectShapeB(body: any): void {
  expect(sorted(body)).toEqual(keysOf(SHAPE_B_KEYS));
  expect(Array.isArray(body.data)).toBe(true);
  for (const k of ['current_page', 'last_page', 'per_page', 'total']) expect(isInt(body[k]), k).toBe(true);
  expect(intOrNull(body.from) && intOrNull(body.to)).toBe(true);
  for (const k of ['first_page_url', 'last_page_url', 'path']) expect(typeof body[k], k).toBe('string');
  for (const k of ['next_page_url', 'prev_page_url']) expect(strOrNull(body[k]), k).toBe(true);
  // "URLs are absolute and carry a page query parameter."
  for (const k of ['first_page_url', 'last_page_url', 'next_page_url', 'prev_page_url']) {
    if (body[k] === null) continue;
    const u = new URL(body[k]);
    expect(u.protocol).toMatch(/^https?:$/);
    expect(u.searchParams.get('page'), k).toMatch(/^\d+$/);
  }
  expect(() => new URL(body.path)).not.toThrow();
  for (const link of body.links) {
    expect(sorted(link)).toEqual(keysOf(LINK_KEYS));
    expect(strOrNull(link.url) && typeof link.label === 'string' && typeof link.active === 'boolean').toBe(true);
  }
  expect(body.links[0].label).toBe('pagination.previous');
  expect(body.links.at(-1).label).toBe('pagination.next');
}

export function expectShapeC(body: any, arrayKey: 'memories' | 'collections', message: string): void {
  expect(sorted(body)).toEqual(['message', arrayKey, 'meta'].sort());
  expect(body.message).toBe(message);
  expect(Array.isArray(body[arrayKey])).toBe(true);
  expect(sorted(body.meta)).toEqual(keysOf(SHAPE_C_META_KEYS));
  for (const k of SHAPE_C_META_KEYS) expect(isInt(body.meta[k]), k).toBe(true);
}

export function expectResource(r: any): void {
  expect(sorted(r)).toEqual(keysOf(RESOURCE_KEYS));
  for (const k of ['id', 'title', 'description']) expect(typeof r[k], k).toBe('string');
  expect(r.created_at).toMatch(ISO_SECONDS_Z);
  expect(r.updated_at).toMatch(ISO_SECONDS_Z);
}

export function expectQuestion(q: any): void {
  // ext `default` (CONTRACT: questions may carry one): a select's starting choice, one of its options.
  const keys = sorted(q).filter((k: string) => k !== 'default');
  expect(keys).toEqual(keysOf(q.type === 'select' || 'options' in q ? [...QUESTION_KEYS, 'options'] : QUESTION_KEYS));
  if ('default' in q) expect(typeof q.default === 'string' && (!Array.isArray(q.options) || q.options.includes(q.default))).toBe(true);
  expect(typeof q.type === 'string' && typeof q.name === 'string' && typeof q.description === 'string' && typeof q.required === 'boolean').toBe(true);
  if (q.type === 'select') {
    expect(Array.isArray(q.options) && q.options.length > 0).toBe(true);
    for (const o of q.options) expect(typeof o).toBe('string');
  }
}

export function expectAgent(a: any): void {
  const keys = Object.keys(a);
  for (const k of AGENT_KEYS) expect(keys, `agent lacks ${k}`).toContain(k);
  const extra = keys.filter((k) => !AGENT_KEYS.includes(k));
  expect(extra.filter((k) => !AGENT_EXT_KEYS.includes(k)), 'undeclared agent keys').toEqual([]);
  expect(isInt(a.id) && isInt(a.workspace_id) && isInt(a.active) && isInt(a.created_by)).toBe(true);
  expect(typeof a.title === 'string' && typeof a.visibility === 'string' && typeof a.slug === 'string').toBe(true);
  expect(strOrNull(a.description) && strOrNull(a.long_description)).toBe(true);
  expect(['chat', 'image', 'text', 'video']).toContain(a.type);
  expect(Array.isArray(a.questions)).toBe(true);
  a.questions.forEach(expectQuestion);
  expect(a.created_at).toMatch(ISO_MICROS);
  expect(a.updated_at).toMatch(ISO_MICROS);
}

export function expectMemory(m: any, withCollection = false): void {
  expect(sorted(m)).toEqual(keysOf(withCollection ? [...MEMORY_KEYS, 'collection'] : MEMORY_KEYS));
  expect(isInt(m.id) && isInt(m.user_id) && isInt(m.collection_id)).toBe(true);
  expect(typeof m.memory).toBe('string');
  expect(typeof m.credits).toBe('number');
  if (withCollection) expectCollection(m.collection);
}

export function expectCollection(c: any, listed = false): void {
  expect(sorted(c)).toEqual(keysOf(listed ? COLLECTION_LISTED_KEYS : COLLECTION_KEYS));
  expect(isInt(c.id) && isInt(c.user_id) && typeof c.name === 'string').toBe(true);
  if (listed) expect(typeof c.display_name).toBe('string');
}

export function expectWebhook(w: any): void {
  expect(sorted(w)).toEqual(keysOf(WEBHOOK_KEYS));
  expect(isInt(w.id) && isInt(w.template_id) && isInt(w.user_id) && isInt(w.success_count) && isInt(w.failure_count)).toBe(true);
  expect(typeof w.url).toBe('string');
  expect(w.method).toBe('POST');
  expect(['active', 'inactive']).toContain(w.status);
  expect(w.created_at).toMatch(ISO_MICROS);
  expect(w.updated_at).toMatch(ISO_MICROS);
  if (w.deleted_at !== null) expect(w.deleted_at).toMatch(ISO_MICROS);
}

/** Laravel's 422 envelope (CONTRACT.md "Errors"): the first message, and every message by field. */
export function expect422(r: { status: number; json: any }, field: string, message?: string | RegExp): void {
  expect(r.status, JSON.stringify(r.json)).toBe(422);
  expect(sorted(r.json)).toEqual(['errors', 'message']);
  expect(Object.keys(r.json.errors)).toContain(field);
  for (const list of Object.values(r.json.errors)) {
    expect(Array.isArray(list)).toBe(true);
    for (const m of list as unknown[]) expect(typeof m).toBe('string');
  }
  expect(r.json.message.startsWith(Object.values<string[]>(r.json.errors)[0][0])).toBe(true);
  if (message instanceof RegExp) expect(r.json.errors[field][0]).toMatch(message);
  else if (message !== undefined) expect(r.json.errors[field][0]).toBe(message);
}

/** `{"message": "..."}` and nothing else. */
export function expectMessage(r: { status: number; json: any }, status: number, message?: string): void {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(sorted(r.json)).toEqual(['message']);
  expect(typeof r.json.message).toBe('string');
  if (message !== undefined) expect(r.json.message).toBe(message);
}

/** The spec's "Execution (agent response)" fields (GET /api/agent-responses/{id}, the non-stream `responses` items). */
export const EXECUTION_KEYS = ['id', 'status', 'input', 'output', 'error', 'credits', 'root_id', 'created_at', 'updated_at', 'template_id'];
/**
 * Additions to an execution (never replacing a spec'd field): `model` (the model that answered),
 * `context` (what the model was given besides the conversation, CONTRACT.md "Retrieval"), `steps`
 * (CONTRACT.md "Tools and schedules"), `timing` (a finished answer's time to first text and tokens per
 * second). A new one must be added here on purpose.
 */
export const EXECUTION_EXT_KEYS = ['model', 'context', 'steps', 'timing'];
/** Stored statuses (CONTRACT.md "Execution"); `awaiting_approval` is visible on GET only ("Recorded from the implementation"). */
export const EXECUTION_STATUSES = ['starting', 'running', 'succeeded', 'failed', 'canceled', 'awaiting_approval'];

/**
 * ext sessions (README "Chat": `GET /api/sessions`, `GET|PATCH|DELETE /api/sessions/{id}`): the
 * executions sharing a `root_id` (CONTRACT.md "Execution"); `id` is that root_id, `schedule` the
 * schedule whose run started it (CONTRACT.md "Tools and schedules") or null; `pinned`, `archived`,
 * `instructions`, `options` (CONTRACT.md "Sessions").
 */
export const SESSION_KEYS = ['id', 'agent_id', 'title', 'turns', 'last_status', 'created_at', 'updated_at', 'schedule', 'pinned', 'archived', 'instructions', 'options'];
/** One session: plus `earlier` (the history it was started from) and its `executions` in order. */
export const SESSION_DETAIL_KEYS = [...SESSION_KEYS, 'earlier', 'executions'];
/** A session's execution: the execution, plus the branch's `parent_id` and the `answers` it ran with. */
export const SESSION_EXECUTION_EXT_KEYS = ['parent_id', 'answers'];

export function expectExecution(e: any, ext: string[] = []): void {
  const keys = Object.keys(e);
  for (const k of EXECUTION_KEYS) expect(keys, `execution lacks ${k}`).toContain(k);
  expect(keys.filter((k) => !EXECUTION_KEYS.includes(k) && !EXECUTION_EXT_KEYS.includes(k) && !ext.includes(k)), 'undeclared execution keys').toEqual([]);
  expect(isInt(e.id) && isInt(e.root_id) && isInt(e.template_id)).toBe(true);
  expect(EXECUTION_STATUSES).toContain(e.status);
  expect(typeof e.input === 'string' && typeof e.output === 'string').toBe(true);
  expect(e.credits === null || typeof e.credits === 'number').toBe(true);
  // CONTRACT.md "Execution": a failed one has `error: {"message", "code"}`.
  if (e.error !== null) {
    expect(sorted(e.error)).toEqual(['code', 'message']);
    expect(typeof e.error.message === 'string' && typeof e.error.code === 'string').toBe(true);
  }
  expect(e.created_at).toMatch(ISO_MICROS);
  expect(e.updated_at).toMatch(ISO_MICROS);
  if ('model' in e) expect(strOrNull(e.model)).toBe(true);
  if ('steps' in e) expect(Array.isArray(e.steps)).toBe(true);
}

export function expectSession(s: any): void {
  expect(sorted(s)).toEqual(keysOf(SESSION_KEYS));
  expect(isInt(s.id) && isInt(s.agent_id) && isInt(s.turns)).toBe(true);
  expect(typeof s.title).toBe('string');
  expect(s.title.length).toBeLessThanOrEqual(80);
  expect(EXECUTION_STATUSES).toContain(s.last_status);
  expect(s.created_at).toMatch(ISO_MICROS);
  expect(s.updated_at).toMatch(ISO_MICROS);
  if (s.schedule !== null) {
    expect(sorted(s.schedule)).toEqual(['id', 'name']);
    expect(isInt(s.schedule.id) && strOrNull(s.schedule.name)).toBe(true);
  }
  // CONTRACT.md "Sessions": pinned, archived, the session's own instructions (≤ 20,000) and options.
  expect(typeof s.pinned === 'boolean' && typeof s.archived === 'boolean').toBe(true);
  expect(strOrNull(s.instructions)).toBe(true);
  if (s.instructions !== null) expect(s.instructions.length).toBeLessThanOrEqual(20_000);
  expect(typeof s.options).toBe('object');
  for (const k of Object.keys(s.options)) expect(['temperature', 'max_tokens', 'top_p']).toContain(k);
  for (const v of Object.values(s.options)) expect(typeof v).toBe('number');
}

export function expectSessionDetail(d: any): void {
  expect(sorted(d)).toEqual(keysOf(SESSION_DETAIL_KEYS));
  const { earlier, executions, ...session } = d;
  expectSession(session);
  expect(Array.isArray(earlier)).toBe(true);
  for (const m of earlier) {
    expect(sorted(m)).toEqual(['content', 'role']);
    expect(['user', 'assistant']).toContain(m.role);
    expect(typeof m.content).toBe('string');
  }
  expect(Array.isArray(executions)).toBe(true);
  expect(executions).toHaveLength(d.turns);
  for (const e of executions) {
    expectExecution(e, SESSION_EXECUTION_EXT_KEYS);
    expect(e.parent_id === null || isInt(e.parent_id)).toBe(true);
    expect(e.root_id).toBe(d.id);
    if ('answers' in e) expect(e.answers !== null && typeof e.answers === 'object' && !Array.isArray(e.answers)).toBe(true);
  }
}
