import type { DB } from '../../db/connection.js';
import type { Session, SessionListQuery } from '../../contract/sessions.js';
import type { Page } from '../../kernel/context.js';
import { offsetOf } from '../../kernel/context.js';
import type { ExecutionRow, Turn } from './store.js';
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
}

/**
 * Per user's session (root_id): counts and bounds, with its first and latest execution.
 * (A row written before root_id was always set has it NULL: it is its own session.)
 */
const SESSIONS = `WITH s AS (
    SELECT coalesce(root_id, id) AS root_id, count(*) AS turns, min(id) AS first_id, max(id) AS last_id, min(created_at) AS created_at, max(updated_at) AS updated_at
    FROM executions WHERE user_id = @userId GROUP BY coalesce(root_id, id)
  )
  SELECT s.root_id, s.turns, s.created_at, s.updated_at, f.agent_id, f.turns AS first_turns, f.input AS first_input, l.status AS last_status
  FROM s JOIN executions f ON f.id = s.first_id JOIN executions l ON l.id = s.last_id
  WHERE @agentId IS NULL OR f.agent_id = @agentId`;

/** The first user message of a session, on one line, at most 80 characters (code points). */
export function sessionTitle(firstTurns: string, firstInput: string): string {
  let text = firstInput;
  try {
    text = (JSON.parse(firstTurns) as Turn[]).find((t) => t.role === 'user')?.content ?? firstInput;
  } catch {}
  return Array.from(text.replace(/\s+/g, ' ').trim()).slice(0, TITLE_MAX).join('');
}

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

/** The sessions queries of the executions table (executions.ts holds the rules). */
export class SessionsStore {
  private readonly pageStmt;
  private readonly countStmt;
  private readonly oneStmt;
  private readonly rowsStmt;
  private readonly deleteStmt;

  constructor(private readonly db: DB) {
    // Newest activity first; equal times by the newer session.
    this.pageStmt = db.prepare<{ userId: number; agentId: number | null; limit: number; offset: number }, SessionRow>(
      `${SESSIONS} ORDER BY s.updated_at DESC, s.root_id DESC LIMIT @limit OFFSET @offset`,
    );
    this.countStmt = db.prepare<{ userId: number; agentId: number | null }, { n: number }>(`SELECT count(*) AS n FROM (${SESSIONS})`);
    this.oneStmt = db.prepare<{ userId: number; agentId: null; rootId: number }, SessionRow>(`SELECT * FROM (${SESSIONS}) WHERE root_id = @rootId`);
    const ofSession = '(root_id = @rootId OR (root_id IS NULL AND id = @rootId)) AND user_id = @userId';
    this.rowsStmt = db.prepare<{ rootId: number; userId: number }, ExecutionRow>(`SELECT * FROM executions WHERE ${ofSession} ORDER BY id`);
    this.deleteStmt = db.prepare<{ rootId: number; userId: number }>(`DELETE FROM executions WHERE ${ofSession}`);
  }

  page(userId: number, q: SessionListQuery): Page<Session> {
    const agentId = q.agent_id ?? null;
    const rows = this.pageStmt.all({ userId, agentId, limit: q.per_page, offset: offsetOf(q.page, q.per_page) });
    return { items: rows.map(toSession), total: this.countStmt.get({ userId, agentId })!.n, page: q.page, perPage: q.per_page };
  }

  one(userId: number, rootId: number): Session | null {
    const row = this.oneStmt.get({ userId, agentId: null, rootId });
    return row ? toSession(row) : null;
  }

  executions(userId: number, rootId: number): ExecutionRow[] {
    return this.rowsStmt.all({ rootId, userId });
  }

  delete(userId: number, rootId: number): number {
    return this.deleteStmt.run({ rootId, userId }).changes;
  }
}

function toSession(r: SessionRow): Session {
  return {
    id: r.root_id,
    agent_id: r.agent_id,
    title: sessionTitle(r.first_turns, r.first_input),
    turns: r.turns,
    last_status: r.last_status,
    created_at: isoMicros(r.created_at),
    updated_at: isoMicros(r.updated_at),
  };
}
