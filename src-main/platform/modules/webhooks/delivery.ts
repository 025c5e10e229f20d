import type { ServiceContext, Page } from '../../kernel/context.js';
import { offsetOf, parseId } from '../../kernel/context.js';
import { ConflictError, NotFoundError } from '../../kernel/errors.js';
import type { WebhooksService } from './service.js';
import type { Job, JobQueue } from '../../jobs/queue.js';
import type { ExecutionFinished } from '../../kernel/events.js';
import { tx } from '../../db/connection.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import { attemptDelivery, plainHeaders, type AttemptResult } from './sender.js';
import { newMessageId } from './signing.js';
import { backoff, deliverySettings, type DeliverySettings } from './retry-schedule.js';
import { DeliveryRecords, type DeliveryStatus } from './delivery-store.js';
import type { WebhookDelivery, WebhookDeliveryDetail } from '../../contract/webhook-deliveries.js';
import { receives } from './subscriptions.js';

export const DELIVERY_JOB = 'webhook.delivery';
/** Deliveries in flight at once, over all webhooks. */
export const DELIVERY_CONCURRENCY = 16;
/**
 * Deliveries in flight at once to one webhook. Due deliveries are always taken oldest event
 * first; a healthy receiver gets up to 8 at once (so a burst is delivered at the receiver's pace,
 * and two close events may arrive swapped: `timestamp` orders them); a receiver whose last attempt
 * failed gets one at a time until it answers again, so a slow or dead receiver holds one of the 16
 * slots, not all of them. A failed delivery steps aside to its retry
 * schedule and does not hold up later events (a receiver down for an hour gets its backlog when it
 * is back, not after the 17-hour schedule of the first event).
 */
export const PER_WEBHOOK_CONCURRENCY = 8;
export const PER_STRUGGLING_WEBHOOK_CONCURRENCY = 1;

/** Finished deliveries (and their attempts) are kept this long in the log. */
export const LOG_RETENTION_DAYS = 30;

export const EXECUTION_EVENTS = ['execution.succeeded', 'execution.failed'] as const;

/** How much of a delivery's body its detail shows. */
export const REQUEST_BODY_CAP = 64 * 1024;


interface DeliveryJob {
  deliveryId: number;
}

/** A failed attempt, thrown so the queue schedules the retry; the attempt is recorded in onRetry/onGiveUp. */
class AttemptFailed extends Error {
  constructor(readonly result: AttemptResult) {
    super(result.error ?? 'Delivery failed');
  }
}

/**
 * Webhook delivery (CONTRACT.md "Webhooks"): fans events out to the agent's active webhooks,
 * sends them signed through the durable jobs queue with retries, and keeps the delivery log.
 */
export class WebhookDeliveryService {
  readonly settings: DeliverySettings;
  private readonly records: DeliveryRecords;
  /** Webhooks whose latest attempt failed: they get one delivery at a time until one succeeds. */
  private readonly struggling = new Set<number>();
  /** Test sends made outside the queue; shutdown waits for them before the database closes. */
  private readonly direct = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly webhooks: WebhooksService,
    private readonly jobs: JobQueue,
  ) {
    this.settings = deliverySettings(ctx.config.env);
    this.records = new DeliveryRecords(ctx.db);
    const delays = this.settings.retryDelaysMs;
    jobs.register<DeliveryJob>(DELIVERY_JOB, (job) => this.runJob(job), {
      concurrency: DELIVERY_CONCURRENCY,
      laneLimit: (lane) => (this.struggling.has(webhookOfLane(lane)) ? PER_STRUGGLING_WEBHOOK_CONCURRENCY : PER_WEBHOOK_CONCURRENCY),
      maxAttempts: delays.length + 1,
      backoffMs: (n) => backoff(delays, n),
      onRetry: (job, message, nextRunAt, err) => this.recordFailure(job, resultOf(err, message), nextRunAt * 1000),
      onGiveUp: (job, message, err) => this.recordFailure(job, resultOf(err, message), null),
    });
    this.ctx.events.on('execution.finished', this.onExecutionFinished);
    const pruned = tx(this.ctx.db, () => this.records.prune(nowMicros() - LOG_RETENTION_DAYS * 86_400_000_000, DELIVERY_JOB));
    if (pruned) this.ctx.log.info({ pruned }, 'pruned old webhook deliveries');
  }

  async stop(): Promise<void> {
    this.ctx.events.off('execution.finished', this.onExecutionFinished);
    await Promise.allSettled([...this.direct]);
  }

  private readonly onExecutionFinished = (e: ExecutionFinished): void => {
    if (!EXECUTION_EVENTS.includes(e?.type)) return;
    try {
      this.publish(e.agentId, e.type, e.execution, e.userId);
    } catch (err) {
      // The execution itself is stored; a fan-out that could not be written is logged, never thrown into the emitter.
      this.ctx.log.error({ err, agentId: e.agentId, type: e.type }, 'could not enqueue webhook deliveries');
    }
  };

  /**
   * Records one event and a delivery to every active, live webhook of the agent, all in one
   * transaction: an event is fanned out to all of them or to none. Returns the delivery ids.
   * With `userId`, only that user's webhooks receive it: an execution's input is its caller's,
   * never sent to another user's receiver. A webhook subscribed to other events gets nothing.
   */
  publish(agentId: number, type: string, data: unknown, userId?: number): number[] {
    const jobs = this.jobs;
    return tx(this.ctx.db, () => {
      const hooks = this.webhooks.activeForAgent(agentId).filter((h) => (userId === undefined || h.user_id === userId) && receives(h.events, type));
      if (!hooks.length) return [];
      const now = nowMicros();
      const eventId = this.records.insertEvent(newMessageId(), type, eventBody(type, now, data), now);
      return hooks.map((h) => {
        const id = this.records.insertDelivery(h.id, eventId, 'pending', now);
        this.records.setJob(id, this.enqueue(jobs, h.id, id));
        return id;
      });
    });
  }

  private enqueue(jobs: JobQueue, webhookId: number, deliveryId: number): number {
    return jobs.enqueue(DELIVERY_JOB, { deliveryId } satisfies DeliveryJob, { lane: laneOf(webhookId) });
  }

  private recordFailure(job: Job<DeliveryJob>, result: AttemptResult, nextAt: number | null): void {
    if (job.lane) this.struggling.add(webhookOfLane(job.lane));
    this.records.recordAttempt(job.payload.deliveryId, result, nextAt);
  }

  private async runJob(job: Job<DeliveryJob>): Promise<void | (() => void)> {
    const d = this.records.forSend(job.payload.deliveryId);
    if (!d) return; // its webhook row is gone (cascade): nothing left to deliver to
    // Inactive or deleted webhooks get nothing (CONTRACT.md), also for retries scheduled before.
    if (d.deleted_at !== null || d.webhook_status !== 'active') {
      const reason = d.deleted_at !== null ? 'Canceled: the webhook was deleted' : 'Canceled: the webhook is inactive';
      return () => this.records.cancel(d.id, reason);
    }
    const result = await attemptDelivery({ url: d.url, secret: d.secret, messageId: d.message_id, body: d.body, timeoutMs: this.settings.timeoutMs });
    if (!result.ok) throw new AttemptFailed(result);
    this.struggling.delete(d.webhook_id);
    // Recorded in the transaction that deletes the job: a 2xx is counted once and never re-sent.
    return () => this.records.recordAttempt(d.id, result, null);
  }

  /**
   * ext `POST /api/webhooks/{id}/test`: one `webhook.test` event sent at once, outside the queue,
   * answered with that attempt. It is an explicit request, so an inactive webhook gets it too; it
   * counts like any attempt and is not retried (the log's redeliver button retries it).
   */
  async sendTest(userId: number, rawWebhookId: string): Promise<WebhookDeliveryDetail> {
    const h = this.webhooks.row(userId, rawWebhookId);
    const now = nowMicros();
    const messageId = newMessageId();
    const body = eventBody('webhook.test', now, { webhook_id: h.id, template_id: h.agent_id, message: 'This is a test event from Agent Desk.' });
    const sending = attemptDelivery({ url: h.url, secret: h.secret, messageId, body, timeoutMs: this.settings.timeoutMs });
    this.direct.add(sending);
    let result: AttemptResult;
    try {
      result = await sending;
    } finally {
      this.direct.delete(sending);
    }
    const id = tx(this.ctx.db, () => {
      const eventId = this.records.insertEvent(messageId, 'webhook.test', body, now);
      const deliveryId = this.records.insertDelivery(h.id, eventId, 'pending', now);
      this.records.recordAttempt(deliveryId, result, null);
      return deliveryId;
    });
    return this.detail(this.records.item(id)!);
  }

  /** ext: the webhook's delivery log, newest first. */
  list(userId: number, rawWebhookId: string, q: { page: number; per_page: number; status?: DeliveryStatus }): Page<WebhookDelivery> {
    const h = this.webhooks.row(userId, rawWebhookId);
    const { items, total } = this.records.page(h.id, q.status ?? null, q.per_page, offsetOf(q.page, q.per_page));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  /** ext: one delivery, its attempts (status, answer excerpt, duration) and the request it sends. */
  get(userId: number, rawWebhookId: string, rawDeliveryId: string): WebhookDeliveryDetail {
    return this.detail(this.findOf(this.webhooks.row(userId, rawWebhookId).id, rawDeliveryId));
  }

  private detail(d: WebhookDelivery): WebhookDeliveryDetail {
    const r = this.records.request(d.id)!;
    const truncated = r.body.length > REQUEST_BODY_CAP;
    return {
      ...d,
      request: { method: r.method, url: r.url, headers: plainHeaders(r.message_id), body: truncated ? r.body.slice(0, REQUEST_BODY_CAP) : r.body, body_truncated: truncated },
    };
  }

  /**
   * ext: sends a delivery again, with the same `webhook-id` (receivers that dedupe see it as the
   * same event) and a fresh retry schedule. One waiting for a retry is brought forward instead.
   */
  redeliver(userId: number, rawWebhookId: string, rawDeliveryId: string): WebhookDelivery {
    const jobs = this.jobs;
    const h = this.webhooks.row(userId, rawWebhookId);
    const d = this.findOf(h.id, rawDeliveryId);
    if (h.status !== 'active') throw new ConflictError('The webhook is inactive; activate it before redelivering.');
    tx(this.ctx.db, () => {
      const state = this.records.jobState(d.id);
      if (state === 'running') throw new ConflictError('This delivery is being attempted right now.');
      const now = Date.now();
      if (state === 'pending') this.records.bringForward(d.id, now);
      else this.records.requeue(d.id, this.enqueue(jobs, h.id, d.id), now * 1000);
    });
    jobs.wake();
    return this.records.item(d.id)!;
  }

  private findOf(webhookId: number, rawDeliveryId: string): WebhookDelivery {
    const id = parseId(rawDeliveryId);
    const item = id ? this.records.item(id) : undefined;
    if (!item || item.webhook_id !== webhookId) throw new NotFoundError('Delivery not found');
    return item;
  }

}

const laneOf = (webhookId: number) => `webhook:${webhookId}`;
const webhookOfLane = (lane: string) => Number(lane.slice('webhook:'.length));

/** The delivered body (Standard Webhooks payload): `{type, timestamp, data}`. */
function eventBody(type: string, micros: number, data: unknown): string {
  return JSON.stringify({ type, timestamp: isoMicros(micros), data });
}

/** The attempt behind a queue failure: ours carry it; anything else thrown is logged as the error. */
function resultOf(err: unknown, message: string): AttemptResult {
  if (err instanceof AttemptFailed) return err.result;
  return { ok: false, statusCode: null, latencyMs: 0, error: message, responseBody: null };
}
