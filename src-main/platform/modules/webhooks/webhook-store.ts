import type { DB } from '../../db/connection.js';
import { statements } from '../../db/statements.js';

export interface WebhookRow {
  id: number;
  agent_id: number;
  user_id: number;
  url: string;
  method: string;
  status: 'active' | 'inactive';
  secret: string;
  /** JSON array of the subscribed event types; `[]` is every event. */
  events: string;
  /** what it is for, as the person wrote it */
  description: string | null;
  success_count: number;
  failure_count: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

/** Which live webhooks a page lists: a user's, or a user's for one agent. */
export type WebhookScope = { userId: number; agentId?: number };

/** The webhooks table's statements (compiled on first use, then reused); delivery-store.ts holds the log's. */
export class WebhookRecords {
  private readonly sql;

  constructor(db: DB) {
    this.sql = statements(db);
  }

  insert(r: { agentId: number; userId: number; url: string; method: string; status: 'active' | 'inactive'; secret: string; events: string; description: string | null; now: number }): number {
    // Named parameters: the fields an insert and an update write are bound by name, not listed twice in order.
    return Number(
      this.sql<typeof r>(
        'INSERT INTO webhooks(agent_id, user_id, url, method, status, secret, events, description, created_at, updated_at) VALUES (@agentId, @userId, @url, @method, @status, @secret, @events, @description, @now, @now)',
      ).run(r).lastInsertRowid,
    );
  }

  /** A live (not deleted) webhook of the user. */
  live(id: number, userId: number): WebhookRow | undefined {
    return this.sql<[number, number], WebhookRow>('SELECT * FROM webhooks WHERE id = ? AND user_id = ? AND deleted_at IS NULL').get(id, userId);
  }

  page(scope: WebhookScope, limit: number, offset: number): { rows: WebhookRow[]; total: number } {
    const params = { userId: scope.userId, agentId: scope.agentId ?? null };
    const w = 'user_id = @userId AND (@agentId IS NULL OR agent_id = @agentId) AND deleted_at IS NULL';
    const total = this.sql<typeof params, { n: number }>(`SELECT count(*) AS n FROM webhooks WHERE ${w}`).get(params)!.n;
    const rows = this.sql<typeof params & { limit: number; offset: number }, WebhookRow>(`SELECT * FROM webhooks WHERE ${w} ORDER BY id LIMIT @limit OFFSET @offset`).all({
      ...params,
      limit,
      offset,
    });
    return { rows, total };
  }

  update(id: number, r: { url: string; method: string; status: string; secret: string; events: string; description: string | null; now: number }): void {
    this.sql<typeof r & { id: number }>('UPDATE webhooks SET url = @url, method = @method, status = @status, secret = @secret, events = @events, description = @description, updated_at = @now WHERE id = @id').run({
      ...r,
      id,
    });
  }

  softDelete(id: number, now: number): void {
    this.sql('UPDATE webhooks SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, id);
  }

  /** Active, live webhooks of an agent. */
  activeForAgent(agentId: number): WebhookRow[] {
    return this.sql<[number], WebhookRow>("SELECT * FROM webhooks WHERE agent_id = ? AND status = 'active' AND deleted_at IS NULL ORDER BY id").all(agentId);
  }
}
