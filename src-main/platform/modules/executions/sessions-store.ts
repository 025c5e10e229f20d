import type { DB } from '../../db/connection.js';
import type { ExecutionRow } from './store.js';

/** A session (the executions sharing one root_id) as the list reads it. */
export interface SessionRow {
  root_id: number;
  turns: number;
  created_at: number;
  updated_at: number;
  agent_id: number;
  first_turns: string;
  first_input: string;
  last_status: string;
  custom_title: string | null;
  /** the schedule whose run made the first execution, else null */
  schedule_id: number | null;
  schedule_name: string | null;
}

/** The list's filters: `q` is a LIKE pattern (escaped with `\`), null for none; `scheduled` 1 (only), 0 (none) or null. */
export interface SessionFilter {
  userId: number;
  agentId: number | null;
  q: string | null;
  scheduled: 0 | 1 | null;
}

/**
 * Per user's session (root_id): counts and bounds, with its first and latest execution, the
 * title the user gave it and the schedule whose run started it.
 * `@q` (a LIKE pattern) keeps sessions whose title, or any message or answer, holds it.
 */
const SESSIONS = `WITH s AS (
    SELECT root_id, count(*) AS turns, min(id) AS first_id, max(id) AS last_id, min(created_at) AS created_at, max(updated_at) AS updated_at
    FROM executions WHERE user_id = @userId GROUP BY root_id
  )
  SELECT s.root_id, s.turns, s.created_at, s.updated_at, f.agent_id, f.turns AS first_turns, f.input AS first_input, l.status AS last_status, t.title AS custom_title,
    sc.id AS schedule_id, sc.name AS schedule_name
  FROM s JOIN executions f ON f.id = s.first_id JOIN executions l ON l.id = s.last_id
  LEFT JOIN session_titles t ON t.user_id = @userId AND t.root_id = s.root_id
  LEFT JOIN schedule_runs r ON r.execution_id = s.first_id
  LEFT JOIN schedules sc ON sc.id = r.schedule_id
  WHERE (@agentId IS NULL OR f.agent_id = @agentId)
    AND (@scheduled IS NULL OR (sc.id IS NOT NULL) = @scheduled)
    AND (@q IS NULL OR t.title LIKE @q ESCAPE '\\' OR EXISTS (
      SELECT 1 FROM executions e WHERE e.user_id = @userId AND e.root_id = s.root_id AND (e.input LIKE @q ESCAPE '\\' OR e.output LIKE @q ESCAPE '\\')
    ))`;

/** The SQL of sessions: their list, titles, and the rows of a conversation's tree; statements prepared once. */
export class SessionRowsStore {
  private readonly pageStmt;
  private readonly countStmt;
  private readonly oneStmt;
  private readonly rowsStmt;
  private readonly deleteStmt;
  private readonly deleteTitleStmt;
  private readonly setTitleStmt;
  private readonly rowStmt;
  private readonly latestStmt;

  constructor(db: DB) {
    // Newest activity first; equal times by the newer session.
    this.pageStmt = db.prepare<SessionFilter & { limit: number; offset: number }, SessionRow>(
      `${SESSIONS} ORDER BY s.updated_at DESC, s.root_id DESC LIMIT @limit OFFSET @offset`,
    );
    this.countStmt = db.prepare<SessionFilter, { n: number }>(`SELECT count(*) AS n FROM (${SESSIONS})`);
    this.oneStmt = db.prepare<{ userId: number; agentId: null; q: null; scheduled: null; rootId: number }, SessionRow>(`SELECT * FROM (${SESSIONS}) WHERE root_id = @rootId`);
    const ofSession = 'root_id = @rootId AND user_id = @userId';
    this.rowsStmt = db.prepare<{ rootId: number; userId: number }, ExecutionRow>(`SELECT * FROM executions WHERE ${ofSession} ORDER BY id`);
    this.deleteStmt = db.prepare<{ rootId: number; userId: number }>(`DELETE FROM executions WHERE ${ofSession}`);
    this.deleteTitleStmt = db.prepare<{ rootId: number; userId: number }>('DELETE FROM session_titles WHERE root_id = @rootId AND user_id = @userId');
    this.setTitleStmt = db.prepare<{ rootId: number; userId: number; title: string }>(
      'INSERT INTO session_titles(user_id, root_id, title) VALUES (@userId, @rootId, @title) ON CONFLICT(user_id, root_id) DO UPDATE SET title = excluded.title',
    );
    this.rowStmt = db.prepare<[number, number], ExecutionRow>('SELECT * FROM executions WHERE id = ? AND user_id = ?');
    this.latestStmt = db.prepare<[number, number], { id: number | null }>('SELECT max(id) AS id FROM executions WHERE root_id = ? AND user_id = ?');
  }

  page(filter: SessionFilter, limit: number, offset: number): { rows: SessionRow[]; total: number } {
    return { rows: this.pageStmt.all({ ...filter, limit, offset }), total: this.countStmt.get(filter)!.n };
  }

  one(userId: number, rootId: number): SessionRow | undefined {
    return this.oneStmt.get({ userId, agentId: null, q: null, scheduled: null, rootId });
  }

  /** The session's executions, oldest first. */
  executions(userId: number, rootId: number): ExecutionRow[] {
    return this.rowsStmt.all({ rootId, userId });
  }

  /** One of the user's executions. */
  execution(userId: number, id: number): ExecutionRow | undefined {
    return this.rowStmt.get(id, userId);
  }

  /** The session's latest execution, or null when it has none. */
  latest(userId: number, rootId: number): number | null {
    return this.latestStmt.get(rootId, userId)?.id ?? null;
  }

  setTitle(userId: number, rootId: number, title: string): void {
    this.setTitleStmt.run({ userId, rootId, title });
  }

  /** Deletes the session's title and executions; the number of executions deleted. */
  delete(userId: number, rootId: number): number {
    this.deleteTitleStmt.run({ rootId, userId });
    return this.deleteStmt.run({ rootId, userId }).changes;
  }
}
