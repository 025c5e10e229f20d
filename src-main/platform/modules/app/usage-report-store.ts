import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';

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

/** The usage report's SQL: reads of the executions and agents tables (their modules own the writes). */
export class UsageReportStore {
  private readonly sql;

  constructor(db: DB) {
    this.sql = statements(db);
  }

  /** One row per day, agent and model, newest day first. */
  rows(scope: UsageScope, limit: number, offset: number): UsageRowRaw[] {
    return this.sql<UsageScope & { limit: number; offset: number }, UsageRowRaw>(ROWS).all({ ...scope, limit, offset });
  }

  totals(scope: UsageScope): UsageTotalsRaw {
    return this.sql<UsageScope, UsageTotalsRaw>(TOTALS).get(scope)!;
  }
}
