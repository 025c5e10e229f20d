import crypto from 'node:crypto';
import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { NotFoundError } from '../../kernel/errors.js';
import type { Webhook, WebhookCreate, WebhookUpdate } from '../../contract/webhooks.js';
import type { AgentsService } from '../agents/service.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import { WebhookRecords, type WebhookRow, type WebhookScope } from './webhook-store.js';
import { storedEvents, subscribedEvents } from './subscriptions.js';

export type { WebhookRow } from './webhook-store.js';

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
  events: subscribedEvents(r.events),
  description: r.description ?? null,
});

/** A description as stored: trimmed; empty is none. */
const descriptionOf = (d: string | null | undefined): string | null => (d && d.trim() ? d.trim() : null);

/** A Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = (): string => `whsec_${crypto.randomBytes(32).toString('base64')}`;

/** Webhook registration (the rows and counters). Delivery lives in its own service. */
export class WebhooksService {
  private readonly records: WebhookRecords;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly agents: AgentsService,
  ) {
    this.records = new WebhookRecords(ctx.db);
  }

  create(userId: number, rawAgentId: string, body: WebhookCreate) {
    const agent = this.agents.get(userId, rawAgentId);
    const now = nowMicros();
    const id = this.records.insert({ agentId: agent.id, userId, url: body.url, method: body.method ?? 'POST', status: body.status ?? 'active', secret: newSecret(), events: storedEvents(body.events), description: descriptionOf(body.description), now });
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
      events: subscribedEvents(r.events),
      description: r.description ?? null,
      secret: r.secret,
    };
  }

  /** A live (not deleted) webhook of the user, or 404 `Webhook not found`. */
  row(userId: number, rawId: string | number): WebhookRow {
    const id = parseId(rawId);
    const row = id ? this.records.live(id, userId) : undefined;
    if (!row) throw new NotFoundError('Webhook not found');
    return row;
  }

  get(userId: number, rawId: string | number): Webhook {
    return toWebhook(this.row(userId, rawId));
  }

  listForAgent(userId: number, rawAgentId: string, q: { page: number; per_page: number }): Page<Webhook> {
    const agent = this.agents.get(userId, rawAgentId);
    return this.page({ userId, agentId: agent.id }, q);
  }

  listAll(userId: number, q: { page: number; per_page: number }): Page<Webhook> {
    return this.page({ userId }, q);
  }

  private page(scope: WebhookScope, q: { page: number; per_page: number }): Page<Webhook> {
    const { rows, total } = this.records.page(scope, q.per_page, offsetOf(q.page, q.per_page));
    return { items: rows.map(toWebhook), total, page: q.page, perPage: q.per_page };
  }

  /**
   * In place: the id, the secret (unless rotated), the counters and the delivery log stay. A
   * delivery still to be retried goes to the new URL (the sender reads the webhook's current one).
   */
  update(userId: number, rawId: string, body: WebhookUpdate): Webhook & { secret?: string } {
    const r = this.row(userId, rawId);
    const secret = body.rotate_secret ? newSecret() : r.secret;
    const events = body.events === undefined ? r.events : storedEvents(body.events);
    const description = body.description === undefined ? r.description : descriptionOf(body.description);
    this.records.update(r.id, { url: body.url ?? r.url, method: body.method ?? r.method, status: body.status ?? r.status, secret, events, description, now: nowMicros() });
    const out = this.get(userId, r.id);
    return body.rotate_secret ? { ...out, secret } : out;
  }

  /** Soft delete: the row stays (with `deleted_at`) so its delivery history keeps its meaning. */
  delete(userId: number, rawId: string): { id: number; deleted: boolean } {
    const r = this.row(userId, rawId);
    const now = nowMicros();
    this.records.softDelete(r.id, now);
    return { id: r.id, deleted: true };
  }

  /** Active, live webhooks of an agent: the ones that receive its events. */
  activeForAgent(agentId: number): WebhookRow[] {
    return this.records.activeForAgent(agentId);
  }
}
