import type { DB } from '../../db/connection.js';
import type { Session, SessionListQuery } from '../../contract/sessions.js';
import type { Page } from '../../kernel/context.js';
import { offsetOf } from '../../kernel/context.js';
import { ValidationError } from '../../kernel/errors.js';
import type { ExecutionRow } from './store.js';
import type { Turn } from '../../engine/turn.js';
import { isoMicros } from '../../kernel/time.js';

const TITLE_MAX = 80;

interface SessionRow {
  root_id: number;
  turns: number;
  created_at: number;
  updated_at: number;
  agent_id: number;
  first_turns: string;
  first_input: string;
  last_status: string;
  custom_title: string | null;
}

type BranchRow = ExecutionRow & { parent_id: number | null; branched: number };

/**
 * Per user's session (root_id): counts and bounds, with its first and latest execution and the
 * title the user gave it. (A row written before root_id was always set has it NULL: it is its own session.)
 * `@q` (a LIKE pattern) keeps sessions whose title, or any message or answer, holds it.
 */
const SESSIONS = `WITH s AS (
    SELECT coalesce(root_id, id) AS root_id, count(*) AS turns, min(id) AS first_id, max(id) AS last_id, min(created_at) AS created_at, max(updated_at) AS updated_at
    FROM executions WHERE user_id = @userId GROUP BY coalesce(root_id, id)
  )
  SELECT s.root_id, s.turns, s.created_at, s.updated_at, f.agent_id, f.turns AS first_turns, f.input AS first_input, l.status AS last_status, t.title AS custom_title
  FROM s JOIN executions f ON f.id = s.first_id JOIN executions l ON l.id = s.last_id
  LEFT JOIN session_titles t ON t.user_id = @userId AND t.root_id = s.root_id
  WHERE (@agentId IS NULL OR f.agent_id = @agentId)
    AND (@q IS NULL OR t.title LIKE @q ESCAPE '\\' OR EXISTS (
      SELECT 1 FROM executions e WHERE e.user_id = @userId AND coalesce(e.root_id, e.id) = s.root_id AND (e.input LIKE @q ESCAPE '\\' OR e.output LIKE @q ESCAPE '\\')
    ))`;

/** The first user message of a session, on one line, at most 80 characters (code points). */
export function sessionTitle(firstTurns: string, firstInput: string): string {
  let text = firstInput;
  try {
    text = (JSON.parse(firstTurns) as Turn[]).find((t) => t.role === 'user')?.content ?? firstInput;
  } catch {}
  return oneLine(text);
}

const oneLine = (text: string) => Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, TITLE_MAX).join('');

/** The turns a session's first request brought before its last user message. */
export function earlierTurns(firstTurns: string): Turn[] {
  try {
    const turns = JSON.parse(firstTurns) as Turn[];
    const last = turns.map((t) => t.role).lastIndexOf('user');
    return last > 0 ? turns.slice(0, last).map((t) => ({ role: t.role, content: t.content })) : [];
  } catch {
    return [];
  }
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Where a new turn goes in a session's tree: its session and the execution it follows. */
export interface Branch {
  rootId: number | null;
  parentId: number | null;
}

/** ext body fields: `parent_id` (continue after that execution), `alternative_of` (a sibling of it). */
function idField(body: unknown, name: string, errors: Record<string, string[]>): number | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  if (v === undefined || v === null || v === '') return null;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) return n;
  errors[name] = [`The ${name.replace(/_/g, ' ')} field must be an integer.`];
  return null;
}

/** The sessions queries of the executions table: the list, titles and the branches of a conversation. */
export class SessionsStore {
  private readonly pageStmt;
  private readonly countStmt;
  private readonly oneStmt;
  private readonly rowsStmt;
  private readonly deleteStmt;
  private readonly deleteTitleStmt;
  private readonly setTitleStmt;
  private readonly branchRowStmt;
  private readonly previousStmt;
  private readonly latestStmt;

  constructor(private readonly db: DB) {
    // Newest activity first; equal times by the newer session.
    this.pageStmt = db.prepare<{ userId: number; agentId: number | null; q: string | null; limit: number; offset: number }, SessionRow>(
      `${SESSIONS} ORDER BY s.updated_at DESC, s.root_id DESC LIMIT @limit OFFSET @offset`,
    );
    this.countStmt = db.prepare<{ userId: number; agentId: number | null; q: string | null }, { n: number }>(`SELECT count(*) AS n FROM (${SESSIONS})`);
    this.oneStmt = db.prepare<{ userId: number; agentId: null; q: null; rootId: number }, SessionRow>(`SELECT * FROM (${SESSIONS}) WHERE root_id = @rootId`);
    const ofSession = '(root_id = @rootId OR (root_id IS NULL AND id = @rootId)) AND user_id = @userId';
    this.rowsStmt = db.prepare<{ rootId: number; userId: number }, BranchRow>(`SELECT * FROM executions WHERE ${ofSession} ORDER BY id`);
    this.deleteStmt = db.prepare<{ rootId: number; userId: number }>(`DELETE FROM executions WHERE ${ofSession}`);
    this.deleteTitleStmt = db.prepare<{ rootId: number; userId: number }>('DELETE FROM session_titles WHERE root_id = @rootId AND user_id = @userId');
    this.setTitleStmt = db.prepare<{ rootId: number; userId: number; title: string }>(
      'INSERT INTO session_titles(user_id, root_id, title) VALUES (@userId, @rootId, @title) ON CONFLICT(user_id, root_id) DO UPDATE SET title = excluded.title',
    );
    this.branchRowStmt = db.prepare<[number, number], BranchRow>('SELECT * FROM executions WHERE id = ? AND user_id = ?');
    this.previousStmt = db.prepare<[number, number, number], { id: number }>(
      'SELECT id FROM executions WHERE coalesce(root_id, id) = ? AND user_id = ? AND id < ? ORDER BY id DESC LIMIT 1',
    );
    this.latestStmt = db.prepare<[number, number], { id: number }>('SELECT max(id) AS id FROM executions WHERE coalesce(root_id, id) = ? AND user_id = ?');
  }

  page(userId: number, q: SessionListQuery): Page<Session> {
    const agentId = q.agent_id ?? null;
    const pattern = q.q?.trim() ? likePattern(q.q.trim()) : null;
    const rows = this.pageStmt.all({ userId, agentId, q: pattern, limit: q.per_page, offset: offsetOf(q.page, q.per_page) });
    return { items: rows.map(toSession), total: this.countStmt.get({ userId, agentId, q: pattern })!.n, page: q.page, perPage: q.per_page };
  }

  one(userId: number, rootId: number): Session | null {
    const row = this.oneStmt.get({ userId, agentId: null, q: null, rootId });
    return row ? toSession(row) : null;
  }

  executions(userId: number, rootId: number): BranchRow[] {
    return this.rowsStmt.all({ rootId, userId });
  }

  /** The execution each row follows: its recorded parent, or for rows from before branches, the previous one. */
  parents(rows: BranchRow[]): Map<number, number | null> {
    const out = new Map<number, number | null>();
    rows.forEach((r, i) => out.set(r.id, r.branched ? r.parent_id : i > 0 ? rows[i - 1].id : null));
    return out;
  }

  rename(userId: number, rootId: number, title: unknown): void {
    const clean = typeof title === 'string' ? oneLine(title) : '';
    if (typeof title !== 'string') throw new ValidationError({ title: ['The title field is required.'] });
    if (!clean) throw new ValidationError({ title: ['The title field must not be empty.'] });
    this.setTitleStmt.run({ userId, rootId, title: clean });
  }

  delete(userId: number, rootId: number): number {
    this.deleteTitleStmt.run({ rootId, userId });
    return this.deleteStmt.run({ rootId, userId }).changes;
  }

  private parentOf(r: BranchRow, userId: number): number | null {
    if (r.branched) return r.parent_id;
    return this.previousStmt.get(r.root_id ?? r.id, userId, r.id)?.id ?? null;
  }

  /**
   * Where a new turn goes. `alternative_of` X: beside X (same session and parent: a regenerated
   * answer or an edited message). `parent_id` P: after P. Only `root_id`: after the session's
   * latest execution. Nothing: a new session. Ids must be the caller's; they must agree with `root_id`.
   */
  branch(userId: number, body: unknown, rootId: number | null): Branch {
    const errors: Record<string, string[]> = {};
    const alt = idField(body, 'alternative_of', errors);
    const parent = idField(body, 'parent_id', errors);
    if (alt !== null && parent !== null) errors.alternative_of = ['Give either alternative_of or parent_id, not both.'];
    const ref = alt ?? parent;
    const field = alt !== null ? 'alternative_of' : 'parent_id';
    let out: Branch = { rootId, parentId: rootId !== null ? (this.latestStmt.get(rootId, userId)?.id ?? null) : null };
    if (ref !== null && !errors[field]) {
      const row = this.branchRowStmt.get(ref, userId);
      if (!row) errors[field] = [`The selected ${field.replace(/_/g, ' ')} is invalid.`];
      else if (rootId !== null && (row.root_id ?? row.id) !== rootId) errors[field] = [`The ${field.replace(/_/g, ' ')} must belong to the session root_id names.`];
      else out = { rootId: row.root_id ?? row.id, parentId: alt !== null ? this.parentOf(row, userId) : row.id };
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return out;
  }

  /** The conversation up to and including `leafId`: each succeeded execution's new turns, then its answer. */
  transcript(userId: number, leafId: number | null): Turn[] {
    const path: BranchRow[] = [];
    let id = leafId;
    const seen = new Set<number>();
    while (id !== null && !seen.has(id)) {
      seen.add(id);
      const row = this.branchRowStmt.get(id, userId);
      if (!row) break;
      path.push(row);
      id = this.parentOf(row, userId);
    }
    const out: Turn[] = [];
    for (const r of path.reverse()) {
      if (r.status !== 'succeeded') continue;
      out.push(...(JSON.parse(r.turns) as Turn[]));
      out.push({ role: 'assistant', content: r.output });
    }
    return out;
  }
}

function toSession(r: SessionRow): Session {
  return {
    id: r.root_id,
    agent_id: r.agent_id,
    title: r.custom_title ?? sessionTitle(r.first_turns, r.first_input),
    turns: r.turns,
    last_status: r.last_status,
    created_at: isoMicros(r.created_at),
    updated_at: isoMicros(r.updated_at),
  };
}
