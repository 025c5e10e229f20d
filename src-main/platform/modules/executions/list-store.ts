import type { DB } from '../../db/connection.js';
import type { ExecutionListQuery } from '../../contract/executions.js';
import { offsetOf } from '../../kernel/context.js';
import type { ExecutionRow } from './store.js';

type Filter = { userId: number; agentId: number | null; status: string | null; rootId: number | null };

/** ext GET /api/agent-responses: the caller's executions, newest first, with the list filters. */
export class ExecutionList {
  private readonly pageStmt;
  private readonly countStmt;

  constructor(db: DB) {
    const where = `user_id = @userId AND (@agentId IS NULL OR agent_id = @agentId) AND (@status IS NULL OR status = @status)
      AND (@rootId IS NULL OR root_id = @rootId)`;
    this.pageStmt = db.prepare<Filter & { limit: number; offset: number }, ExecutionRow>(
      `SELECT * FROM executions WHERE ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
    );
    this.countStmt = db.prepare<Filter, { n: number }>(`SELECT count(*) AS n FROM executions WHERE ${where}`);
  }

  page(userId: number, q: ExecutionListQuery): { rows: ExecutionRow[]; total: number } {
    // Stored executions read `succeeded`; a client filtering by the stream's `completed` means the same.
    const status = q.status === 'completed' ? 'succeeded' : (q.status ?? null);
    const filter: Filter = { userId, agentId: q.agent_id ?? null, status, rootId: q.root_id ?? null };
    return {
      rows: this.pageStmt.all({ ...filter, limit: q.per_page, offset: offsetOf(q.page, q.per_page) }),
      total: this.countStmt.get(filter)!.n,
    };
  }
}
