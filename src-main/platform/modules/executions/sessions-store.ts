import type { DB } from '../../db/connection.js';
import type { Statement } from 'better-sqlite3';
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
  pinned_at: number | null;
  archived_at: number | null;
  instructions: string | null;
  /** JSON object, '{}' for none */
  options: string | null;
}

/** A session's own settings as stored (session_settings). */
export interface SessionSettingsRow {
  pinned_at: number | null;
  archived_at: number | null;
  instructions: string | null;
  options: string;
}

/**
 * The list's filters: `q` is an FTS5 trigram phrase (3 characters or more) or a LIKE pattern
 * (shorter: the trigram index cannot match it), null for none; the flags 1 (only), 0 (none) or null.
 */
export interface SessionFilter {
  userId: number;
  agentId: number | null;
  q: { match: string } | { like: string } | null;
  scheduled: 0 | 1 | null;
  archived: 0 | 1 | null;
  pinned: 0 | 1 | null;
}

type FilterParams = Omit<SessionFilter, 'q'> & { q: string | null };

/** Root ids of the user's sessions whose text or title matches `@q`, by the accent-folding trigram indexes (migration 17). */
const MATCHED = {
  match: `SELECT e.root_id FROM session_search JOIN executions e ON e.id = session_search.rowid WHERE session_search MATCH @q AND e.user_id = @userId
    UNION SELECT t.root_id FROM session_title_search JOIN session_titles t ON t.rowid = session_title_search.rowid WHERE session_title_search MATCH @q AND t.user_id = @userId`,
  like: `SELECT e.root_id FROM session_search JOIN executions e ON e.id = session_search.rowid WHERE session_search.body LIKE @q ESCAPE '\\' AND e.user_id = @userId
    UNION SELECT root_id FROM session_titles WHERE title LIKE @q ESCAPE '\\' AND user_id = @userId`,
};

/**
 * Per user's session (root_id): counts and bounds, with its first and latest execution, the
 * title the user gave it, its settings and the schedule whose run started it. `q` (a kind of
 * MATCHED) keeps the sessions whose title, or any message or answer, holds `@q`.
 */
const sessionsSql = (q: keyof typeof MATCHED | null) => `WITH s AS (
    SELECT root_id, count(*) AS turns, min(id) AS first_id, max(id) AS last_id, min(created_at) AS created_at, max(updated_at) AS updated_at
    FROM executions WHERE user_id = @userId ${q ? `AND root_id IN (${MATCHED[q]})` : ''} GROUP BY root_id
  )
  SELECT s.root_id, s.turns, s.created_at, s.updated_at, f.agent_id, f.turns AS first_turns, f.input AS first_input, l.status AS last_status, t.title AS custom_title,
    sc.id AS schedule_id, sc.name AS schedule_name, st.pinned_at, st.archived_at, st.instructions, st.options
  FROM s JOIN executions f ON f.id = s.first_id JOIN executions l ON l.id = s.last_id
  LEFT JOIN session_titles t ON t.user_id = @userId AND t.root_id = s.root_id
  LEFT JOIN session_settings st ON st.user_id = @userId AND st.root_id = s.root_id
  LEFT JOIN schedule_runs r ON r.execution_id = s.first_id
  LEFT JOIN schedules sc ON sc.id = r.schedule_id
  WHERE (@agentId IS NULL OR f.agent_id = @agentId)
    AND (@scheduled IS NULL OR (sc.id IS NOT NULL) = @scheduled)
    AND (@archived IS NULL OR (st.archived_at IS NOT NULL) = @archived)
    AND (@pinned IS NULL OR (st.pinned_at IS NOT NULL) = @pinned)`;

/** The SQL of sessions: their list, titles, and the rows of a conversation's tree; statements prepared once. */
export class SessionRowsStore {
  private readonly pageStmts = new Map<keyof typeof MATCHED | null, Statement<FilterParams & { limit: number; offset: number }, SessionRow>>();
  private readonly countStmts = new Map<keyof typeof MATCHED | null, Statement<FilterParams, { n: number }>>();
  private readonly oneStmt;
  private readonly settingsStmt;
  private readonly putSettingsStmt;
  private readonly deleteSettingsStmt;
  private readonly rowsStmt;
  private readonly deleteStmt;
  private readonly deleteTitleStmt;
  private readonly setTitleStmt;
  private readonly rowStmt;
  private readonly latestStmt;

  constructor(db: DB) {
    // Newest activity first (CONTRACT.md); equal times by the newer session. A client shows pinned
    // ones first by asking for `pinned=true` and `pinned=false` apart.
    for (const kind of [null, 'match', 'like'] as const) {
      const sql = sessionsSql(kind);
      this.pageStmts.set(kind, db.prepare<FilterParams & { limit: number; offset: number }, SessionRow>(`${sql} ORDER BY s.updated_at DESC, s.root_id DESC LIMIT @limit OFFSET @offset`));
      this.countStmts.set(kind, db.prepare<FilterParams, { n: number }>(`SELECT count(*) AS n FROM (${sql})`));
    }
    this.oneStmt = db.prepare<FilterParams & { rootId: number }, SessionRow>(`SELECT * FROM (${sessionsSql(null)}) WHERE root_id = @rootId`);
    this.settingsStmt = db.prepare<{ userId: number; rootId: number }, SessionSettingsRow>('SELECT pinned_at, archived_at, instructions, options FROM session_settings WHERE user_id = @userId AND root_id = @rootId');
    this.putSettingsStmt = db.prepare<SessionSettingsRow & { userId: number; rootId: number }>(
      `INSERT INTO session_settings(user_id, root_id, pinned_at, archived_at, instructions, options) VALUES (@userId, @rootId, @pinned_at, @archived_at, @instructions, @options)
       ON CONFLICT(user_id, root_id) DO UPDATE SET pinned_at = excluded.pinned_at, archived_at = excluded.archived_at, instructions = excluded.instructions, options = excluded.options`,
    );
    this.deleteSettingsStmt = db.prepare<{ rootId: number; userId: number }>('DELETE FROM session_settings WHERE root_id = @rootId AND user_id = @userId');
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
    const kind = filter.q === null ? null : 'match' in filter.q ? 'match' : 'like';
    const params: FilterParams = { ...filter, q: filter.q === null ? null : 'match' in filter.q ? filter.q.match : filter.q.like };
    return { rows: this.pageStmts.get(kind)!.all({ ...params, limit, offset }), total: this.countStmts.get(kind)!.get(params)!.n };
  }

  one(userId: number, rootId: number): SessionRow | undefined {
    return this.oneStmt.get({ userId, agentId: null, q: null, scheduled: null, archived: null, pinned: null, rootId });
  }

  /** The session's own settings (none stored: all empty). */
  settings(userId: number, rootId: number): SessionSettingsRow {
    return this.settingsStmt.get({ userId, rootId }) ?? { pinned_at: null, archived_at: null, instructions: null, options: '{}' };
  }

  putSettings(userId: number, rootId: number, row: SessionSettingsRow): void {
    this.putSettingsStmt.run({ userId, rootId, ...row });
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
    this.deleteSettingsStmt.run({ rootId, userId });
    return this.deleteStmt.run({ rootId, userId }).changes;
  }
}
