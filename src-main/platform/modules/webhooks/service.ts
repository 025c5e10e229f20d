import crypto from 'node:crypto';
import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { Webhook } from '../../contract/webhooks.js';
import type { AgentsService } from '../agents/service.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import { statements } from '../../db/statements.js';

export interface WebhookRow {
  id: number;
  agent_id: number;
  user_id: number;
  url: string;
  method: string;
  status: 'active' | 'inactive';
  secret: string;
  success_count: number;
  failure_count: number;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
}

export const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  template_id: r.agent_id,
  user_id: r.user_id,
  url: r.url,
  method: r.method,
  status: r.status,
  success_count: r.success_count,
  failure_count: r.failure_count,
  created_at: isoMicros(r.created_at),
  updated_at: isoMicros(r.updated_at),
  deleted_at: r.deleted_at ? isoMicros(r.deleted_at) : null,
});

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;

/** Webhook registration (the rows and counters). Delivery lives in its own service. */
export class WebhooksService {
  /** Statements compiled on first use, then reused. */
  private readonly sql: ReturnType<typeof statements>;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agents: AgentsService,
  ) {
    this.sql = statements(ctx.db);}

  create(userId: number, rawAgentId: string, body: { url: string; method: 'POST'; status?: 'active' | 'inactive' }) {
    const agent = this.agents.get(userId, rawAgentId);
    const now = nowMicros();
    const id = Number(
      this.sql('INSERT INTO webhooks(agent_id, user_id, url, method, status, secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(agent.id, userId, body.url, body.method, body.status ?? 'active', newSecret(), now, now).lastInsertRowid,
    );
    const r = this.row(userId, id);
    return {
      template_id: r.agent_id,
      user_id: r.user_id,
      url: r.url,
      method: r.method,
      status: r.status,
      updated_at: isoMicros(r.updated_at),
      created_at: isoMicros(r.created_at),
      id: r.id,
      secret: r.secret,
    };
  }

  /** A live (not deleted) webhook of the user, or 404 `Webhook not found`. */
  row(userId: number, rawId: string | number): WebhookRow {
    const id = parseId(rawId);
    const row = id
      ? this.sql<[number, number], WebhookRow>('SELECT * FROM webhooks WHERE id = ? AND user_id = ? AND deleted_at IS NULL').get(id, userId)
      : undefined;
    if (!row) throw new NotFoundError('Webhook not found');
    return row;
  }

  get(userId: number, rawId: string | number): Webhook {
    return toWebhook(this.row(userId, rawId));
  }

  listForAgent(userId: number, rawAgentId: string, q: { page: number; per_page: number }): Page<Webhook> {
    const agent = this.agents.get(userId, rawAgentId);
    return this.page('user_id = @userId AND agent_id = @agentId', { userId, agentId: agent.id }, q);
  }

  listAll(userId: number, q: { page: number; per_page: number }): Page<Webhook> {
    return this.page('user_id = @userId', { userId }, q);
  }

  private page(where: string, params: Record<string, unknown>, q: { page: number; per_page: number }): Page<Webhook> {
    const w = `${where} AND deleted_at IS NULL`;
    const total = this.sql<Record<string, unknown>, { n: number }>(`SELECT count(*) AS n FROM webhooks WHERE ${w}`).get(params)!.n;
    const items = this.sql<Record<string, unknown>, WebhookRow>(`SELECT * FROM webhooks WHERE ${w} ORDER BY id LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: q.per_page, offset: offsetOf(q.page, q.per_page) })
      .map(toWebhook);
    return { items, total, page: q.page, perPage: q.per_page };
  }

  update(userId: number, rawId: string, body: { url?: string; method?: 'POST'; status?: 'active' | 'inactive'; rotate_secret?: boolean }): Webhook & { secret?: string } {
    const r = this.row(userId, rawId);
    const secret = body.rotate_secret ? newSecret() : r.secret;
    this.sql('UPDATE webhooks SET url = ?, method = ?, status = ?, secret = ?, updated_at = ? WHERE id = ?')
      .run(body.url ?? r.url, body.method ?? r.method, body.status ?? r.status, secret, nowMicros(), r.id);
    const out = this.get(userId, r.id);
    return body.rotate_secret ? { ...out, secret } : out;
  }

  /** Soft delete: the row stays (with `deleted_at`) so its delivery history keeps its meaning. */
  delete(userId: number, rawId: string): { id: number; deleted: boolean } {
    const r = this.row(userId, rawId);
    const now = nowMicros();
    this.sql('UPDATE webhooks SET deleted_at = ?, updated_at = ? WHERE id = ?').run(now, now, r.id);
    return { id: r.id, deleted: true };
  }

  /** Active, live webhooks of an agent: the ones that receive its events. */
  activeForAgent(agentId: number): WebhookRow[] {
    return this.sql<[number], WebhookRow>("SELECT * FROM webhooks WHERE agent_id = ? AND status = 'active' AND deleted_at IS NULL ORDER BY id")
      .all(agentId);
  }
}
