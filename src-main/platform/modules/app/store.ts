import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';

/** Units and credits counted on one UTC day (`YYYY-MM-DD`). */
export interface DayRow {
  day: string;
  n: number;
  credits: number;
}

const EXECUTIONS_BY_DAY = `SELECT date(created_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
  FROM executions WHERE user_id = ? AND created_at >= ? GROUP BY day`;

/** Files belong to workspaces: a user's are those processed in the workspaces they belong to. */
const FILES_BY_DAY = `SELECT date(processed_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
  FROM files
  WHERE processed_at IS NOT NULL AND processed_at >= ? AND credits > 0
    AND workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?)
  GROUP BY day`;

/**
 * The usage report's SQL: reads of the executions and files tables (they own their writes).
 * Tables appear with their migrations, so a statement on one is prepared (once, through the
 * shared cache) only when the table exists; an older database reads as no usage.
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
}
