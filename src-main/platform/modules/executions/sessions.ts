import type { DB } from '../../db/connection.js';
import { SessionRowsStore, type SessionRow } from './sessions-store.js';
import type { ExecutionRow } from './store.js';
import type { Session, SessionListQuery, SessionOptions, SessionUpdate } from '../../contract/sessions.js';
import type { Page } from '../../kernel/context.js';
import { offsetOf } from '../../kernel/context.js';
import { ValidationError } from '../../kernel/errors.js';
import type { Turn } from '../../engine/turn.js';
import { isoMicros } from '../../kernel/time.js';
import { isObject, readStoredJson, readStoredList } from '../../kernel/stored-json.js';
import { say } from '../../contract/messages.js';

const TITLE_MAX = 80;

/** The first user message of a session, on one line, at most 80 characters (code points). */
export function sessionTitle(firstTurns: string, firstInput: string, id?: number): string {
  return oneLine(storedTurns(firstTurns, id).find((t) => t.role === 'user')?.content ?? firstInput);
}

const isTurn = (v: unknown): boolean => isObject(v) && (v.role === 'user' || v.role === 'assistant') && typeof v.content === 'string';

/** An execution's stored turns; a damaged column reads as none, a damaged turn is left out (logged once). */
export const storedTurns = (text: string, id?: number): Turn[] => readStoredList<Turn>(text, { column: 'executions.turns', id }, isTurn);

const oneLine = (text: string) => Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, TITLE_MAX).join('');

/** The turns a session's first request brought before its last user message. */
export function earlierTurns(firstTurns: string, id?: number): Turn[] {
  const turns = storedTurns(firstTurns, id);
  const last = turns.map((t) => t.role).lastIndexOf('user');
  return last > 0 ? turns.slice(0, last).map((t) => ({ role: t.role, content: t.content })) : [];
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The search of `q`: a trigram phrase (a substring, case and accents folded by the index) when it
 * holds 3 characters or more; shorter, the trigram index matches nothing, so a LIKE pattern.
 */
function searchOf(q: string): { match: string } | { like: string } {
  return Array.from(q).length >= 3 ? { match: `"${q.replace(/"/g, '""')}"` } : { like: likePattern(q) };
}

const flag = (v: boolean | undefined): 0 | 1 | null => (v === undefined ? null : v ? 1 : 0);

/** Stored options JSON as the contract's shape: only known, finite numbers (an unreadable value reads as none). */
export function readOptions(raw: string | null): SessionOptions {
  const out: SessionOptions = {};
  const v = readStoredJson<Record<string, unknown>>(raw, { column: 'session_settings.options' }, {}, isObject);
  for (const k of ['temperature', 'max_tokens', 'top_p'] as const) if (typeof v[k] === 'number' && Number.isFinite(v[k])) out[k] = v[k];
  return out;
}

/** What a session's runs take from its settings: instructions after the agent's, options over its answers. */
export interface SessionRunSettings {
  instructions: string | null;
  options: SessionOptions;
}

/** Where a new turn goes in a session's tree: its session and the execution it follows. */
export interface Branch {
  rootId: number | null;
  parentId: number | null;
}

/**
 * Sessions: the list and titles, and where a new turn goes in a conversation's tree (with the
 * 422s of ids that name no execution of the session). The SQL is in sessions-store.ts.
 */
export class Sessions {
  private readonly rows: SessionRowsStore;

  constructor(private readonly db: DB) {
    this.rows = new SessionRowsStore(db);
  }

  page(userId: number, q: SessionListQuery): Page<Session> {
    const agentId = q.agent_id ?? null;
    // Control characters (a NUL) are no text anyone searches for, and FTS5 refuses them.
    const text = q.q?.replace(/\p{Cc}+/gu, ' ').trim();
    const filter = { userId, agentId, q: text ? searchOf(text) : null, scheduled: flag(q.scheduled), archived: flag(q.archived), pinned: flag(q.pinned) };
    const { rows, total } = this.rows.page(filter, q.per_page, offsetOf(q.page, q.per_page));
    return { items: rows.map(toSession), total, page: q.page, perPage: q.per_page };
  }

  /** A session's instructions and options for its next run (none for a new session). */
  runSettings(userId: number, rootId: number | null): SessionRunSettings {
    if (rootId === null) return { instructions: null, options: {} };
    const st = this.rows.settings(userId, rootId);
    return { instructions: st.instructions, options: readOptions(st.options) };
  }

  /**
   * ext PATCH: the fields given change, the others stay. Pinning keeps the time it was first
   * pinned; empty instructions and empty options are stored as none.
   */
  update(userId: number, rootId: number, body: SessionUpdate, now: number): void {
    this.db.transaction(() => {
      if (body.title !== undefined) this.rename(userId, rootId, body.title);
      const st = this.rows.settings(userId, rootId);
      const next = { ...st };
      if (body.pinned !== undefined) next.pinned_at = body.pinned ? (st.pinned_at ?? now) : null;
      if (body.archived !== undefined) next.archived_at = body.archived ? (st.archived_at ?? now) : null;
      if (body.instructions !== undefined) next.instructions = body.instructions?.trim() ? body.instructions : null;
      if (body.options !== undefined) next.options = JSON.stringify(body.options ?? {});
      if (body.pinned !== undefined || body.archived !== undefined || body.instructions !== undefined || body.options !== undefined) this.rows.putSettings(userId, rootId, next);
    })();
  }

  one(userId: number, rootId: number): Session | null {
    const row = this.rows.one(userId, rootId);
    return row ? toSession(row) : null;
  }

  executions(userId: number, rootId: number): ExecutionRow[] {
    return this.rows.executions(userId, rootId);
  }

  rename(userId: number, rootId: number, title: unknown): void {
    const clean = typeof title === 'string' ? oneLine(title) : '';
    if (typeof title !== 'string') throw new ValidationError({ title: [say.required('title')] });
    if (!clean) throw new ValidationError({ title: [say.must('title', 'not be empty')] });
    this.rows.setTitle(userId, rootId, clean);
  }

  delete(userId: number, rootId: number): number {
    return this.rows.delete(userId, rootId);
  }

  /**
   * Where a new turn goes. `alternative_of` X: beside X (same session and parent: a regenerated
   * answer or an edited message). `parent_id` P: after P. Only `root_id`: after the session's
   * latest execution. Nothing: a new session. Ids must be the caller's; they must agree with `root_id`.
   * The body's ext fields come parsed (ids, at most one of the two).
   */
  branch(userId: number, at: { parentId: number | null; alternativeOf: number | null }, rootId: number | null): Branch {
    const errors: Record<string, string[]> = {};
    const alt = at.alternativeOf;
    const ref = alt ?? at.parentId;
    const field = alt !== null ? 'alternative_of' : 'parent_id';
    let out: Branch = { rootId, parentId: rootId !== null ? this.rows.latest(userId, rootId) : null };
    if (ref !== null) {
      const row = this.rows.execution(userId, ref);
      if (!row) errors[field] = [say.invalid(field.replace(/_/g, ' '))];
      else if (rootId !== null && row.root_id !== rootId) errors[field] = [`The ${field.replace(/_/g, ' ')} must belong to the session root_id names.`];
      else out = { rootId: row.root_id, parentId: alt !== null ? row.parent_id : row.id };
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return out;
  }

  /** The conversation up to and including `leafId`: each succeeded execution's new turns, then its answer. */
  transcript(userId: number, leafId: number | null): Turn[] {
    const path: ExecutionRow[] = [];
    let id = leafId;
    const seen = new Set<number>();
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const row = this.rows.execution(userId, id);
      if (!row) break;
      path.push(row);
      id = row.parent_id;
    }
    const out: Turn[] = [];
    for (const r of path.reverse()) {
      if (r.status !== 'succeeded') continue;
      out.push(...turnsOf(r));
      out.push({ role: 'assistant', content: r.output });
    }
    return out;
  }
}

/** A turn's own words; when its stored turns are damaged, its input (the last user message it was sent). */
function turnsOf(r: ExecutionRow): Turn[] {
  const list = storedTurns(r.turns, r.id);
  return list.length || r.turns === '[]' ? list : [{ role: 'user', content: r.input }];
}

function toSession(r: SessionRow): Session {
  return {
    id: r.root_id,
    agent_id: r.agent_id,
    title: r.custom_title ?? sessionTitle(r.first_turns, r.first_input, r.root_id),
    turns: r.turns,
    last_status: r.last_status,
    created_at: isoMicros(r.created_at),
    updated_at: isoMicros(r.updated_at),
    schedule: r.schedule_id !== null ? { id: r.schedule_id, name: r.schedule_name } : null,
    pinned: r.pinned_at !== null,
    archived: r.archived_at !== null,
    instructions: r.instructions,
    options: readOptions(r.options),
  };
}
