import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';

/** Units and credits counted on one UTC day (`YYYY-MM-DD`). */
export interface DayRow {
  day: string;
  n: number;
  credits: number;
}

// Credits per day (GET /api/usage).
const EXECUTIONS_BY_DAY = `SELECT date(created_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
  FROM executions WHERE user_id = ? AND created_at >= ? GROUP BY day`;

/** Files belong to workspaces: a user's are those processed in the workspaces they belong to. */
const FILES_BY_DAY = `SELECT date(processed_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
  FROM files
  WHERE processed_at IS NOT NULL AND processed_at >= ? AND credits > 0
    AND workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?)
  GROUP BY day`;

/** Which executions a usage report counts. Times are microseconds, `to` excluded. */
export interface UsageScope {
  fromMicros: number;
  toMicros: number;
  workspaceId: number;
  /** Executions whose agent was deleted count in this user's selected workspace (theirs only). */
  caller: number;
  callerWorkspaceId: number;
  userId: number | null;
  type: string | null;
}

export interface UsageRowRaw {
  date: string;
  agent_id: number;
  agent_title: string | null;
  model: string | null;
  executions: number;
  tokens_in: number;
  tokens_out: number;
  credits: number;
}

export type UsageTotalsRaw = Pick<UsageRowRaw, 'executions' | 'tokens_in' | 'tokens_out' | 'credits'>;

// An execution counts in its agent's workspace, on the UTC day it started. Its agent may be gone
// (executions outlive agents): then it counts for its own user in the workspace they selected.
const FROM = `FROM executions e LEFT JOIN agents a ON a.id = e.agent_id
  WHERE e.created_at >= @fromMicros AND e.created_at < @toMicros
    AND (a.workspace_id = @workspaceId OR (a.id IS NULL AND e.user_id = @caller AND @workspaceId = @callerWorkspaceId))
    AND (@userId IS NULL OR e.user_id = @userId)
    AND (@type IS NULL OR a.type = @type)`;

const SUMS = 'count(*) AS executions, coalesce(sum(e.input_tokens), 0) AS tokens_in, coalesce(sum(e.output_tokens), 0) AS tokens_out, coalesce(sum(e.credits), 0) AS credits';

const ROWS = `SELECT date(e.created_at / 1000000, 'unixepoch') AS date, e.agent_id AS agent_id, max(a.title) AS agent_title, e.model AS model, ${SUMS}
  ${FROM}
  GROUP BY date, e.agent_id, e.model
  ORDER BY date DESC, e.agent_id, e.model IS NULL, e.model
  LIMIT @limit OFFSET @offset`;

const TOTALS = `SELECT ${SUMS} ${FROM}`;

/**
 * All the usage module's SQL: reads of the executions, files and agents tables (their modules own
 * the writes). Tables appear with their migrations, so a per-day statement on one is prepared
 * (once, through the shared cache) only when the table exists; an older database reads as no usage.
 */
export class UsageStore {
  private readonly tableStmt;
  private readonly sql;

  constructor(db: DB) {
    this.tableStmt = db.prepare<[string], { ok: number }>("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?");
    this.sql = statements(db);
  }

  private hasTable(name: string): boolean {
    return !!this.tableStmt.get(name);
  }

  /** Executions started since `fromMicros`, per day they started. */
  executionsByDay(userId: number, fromMicros: number): DayRow[] {
    if (!this.hasTable('executions')) return [];
    return this.sql<[number, number], DayRow>(EXECUTIONS_BY_DAY).all(userId, fromMicros);
  }

  /** Files with credits processed since `fromMicros`, per day their processing ended. */
  filesByDay(userId: number, fromMicros: number): DayRow[] {
    if (!this.hasTable('files')) return [];
    return this.sql<[number, number], DayRow>(FILES_BY_DAY).all(fromMicros, userId);
  }

  /** The workspace report: one row per day, agent and model, newest day first. */
  reportRows(scope: UsageScope, limit: number, offset: number): UsageRowRaw[] {
    return this.sql<UsageScope & { limit: number; offset: number }, UsageRowRaw>(ROWS).all({ ...scope, limit, offset });
  }

  reportTotals(scope: UsageScope): UsageTotalsRaw {
    return this.sql<UsageScope, UsageTotalsRaw>(TOTALS).get(scope)!;
  }
}
