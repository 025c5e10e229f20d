import type { DB } from '../../db/connection.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import type { AttemptResult } from './sender.js';
import type { WebhookDelivery } from '../../contract/webhook-deliveries.js';
import { statements } from '../../db/statements.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

interface DeliveryRow {
  id: number;
  webhook_id: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  cancel_reason: string | null;
  created_at: number;
  updated_at: number;
  type: string;
  message_id: string;
}

interface AttemptRow {
  delivery_id: number;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  created_at: number;
}

/** What an attempt needs, read fresh at send time (a rotated secret or edited URL applies to retries). */
export interface SendRow {
  id: number;
  webhook_id: number;
  message_id: string;
  body: string;
  url: string;
  secret: string;
  webhook_status: 'active' | 'inactive';
  deleted_at: number | null;
}

const SELECT_DELIVERY = `SELECT d.id, d.webhook_id, d.status, d.attempts, d.next_attempt_at, d.cancel_reason, d.created_at, d.updated_at, e.type, e.message_id
  FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

/** The delivery tables' statements and row mapping (webhook-delivery.ts holds the rules). */
export class DeliveryRecords {
  /** Statements compiled once: every delivery runs several. */
  private readonly sql;

  constructor(private readonly db: DB) {
    this.sql = statements(db);
  }

  insertEvent(messageId: string, type: string, body: string, at: number): number {
    return Number(this.sql('INSERT INTO webhook_events(message_id, type, body, created_at) VALUES (?, ?, ?, ?)').run(messageId, type, body, at).lastInsertRowid);
  }

  insertDelivery(webhookId: number, eventId: number, status: DeliveryStatus, at: number): number {
    return Number(
      this
        .sql('INSERT INTO webhook_deliveries(webhook_id, event_id, status, attempts, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?)')
        .run(webhookId, eventId, status, status === 'pending' ? at : null, at, at).lastInsertRowid,
    );
  }

  setJob(deliveryId: number, jobId: number): void {
    this.sql('UPDATE webhook_deliveries SET job_id = ? WHERE id = ?').run(jobId, deliveryId);
  }

  forSend(deliveryId: number): SendRow | undefined {
    return this
      .sql<[number], SendRow>(
        `SELECT d.id, d.webhook_id, e.message_id, e.body, w.url, w.secret, w.status AS webhook_status, w.deleted_at
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`,
      )
      .get(deliveryId);
  }

  /**
   * One attempt, its counter and the delivery's new state, written together (callers run this in
   * the transaction that finishes or reschedules the job). `nextAt` (µs): when the retry is due;
   * null after a success or the last failure.
   */
  recordAttempt(deliveryId: number, r: AttemptResult, nextAt: number | null): void {
    const d = this.sql<[number], { attempts: number; webhook_id: number }>('SELECT attempts, webhook_id FROM webhook_deliveries WHERE id = ?').get(deliveryId);
    if (!d) return;
    const now = nowMicros();
    const attempt = d.attempts + 1;
    this
      .sql('INSERT INTO webhook_delivery_attempts(delivery_id, attempt, status_code, latency_ms, error, response_body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(deliveryId, attempt, r.statusCode, r.latencyMs, r.error, r.responseBody, now);
    const status: DeliveryStatus = r.ok ? 'succeeded' : nextAt === null ? 'failed' : 'pending';
    this
      .sql('UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, job_id = CASE WHEN ? THEN job_id END, updated_at = ? WHERE id = ?')
      .run(status, attempt, status === 'pending' ? nextAt : null, status === 'pending' ? 1 : 0, now, deliveryId);
    this
      .sql(`UPDATE webhooks SET ${r.ok ? 'success_count = success_count + 1' : 'failure_count = failure_count + 1'} WHERE id = ?`)
      .run(d.webhook_id);
  }

  /** Ends a delivery without an attempt (its webhook went inactive or was deleted); no counter moves. */
  cancel(deliveryId: number, reason: string): void {
    const now = nowMicros();
    this
      .sql("UPDATE webhook_deliveries SET status = 'canceled', cancel_reason = ?, next_attempt_at = NULL, job_id = NULL, updated_at = ? WHERE id = ?")
      .run(reason, now, deliveryId);
  }

  /** What a delivery sends: its event's id and body, and the webhook's URL and method now. */
  request(deliveryId: number): { message_id: string; body: string; url: string; method: string } | undefined {
    return this
      .sql<[number], { message_id: string; body: string; url: string; method: string }>(
        'SELECT e.message_id, e.body, w.url, w.method FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?',
      )
      .get(deliveryId);
  }

  jobState(deliveryId: number): 'pending' | 'running' | null {
    const row = this
      .sql<[number], { state: string }>("SELECT j.state FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id WHERE d.id = ? AND j.state IN ('pending','running')")
      .get(deliveryId);
    return (row?.state as 'pending' | 'running' | undefined) ?? null;
  }

  /** A delivery waiting for a retry: due now (ms for the jobs table, µs for the log). */
  bringForward(deliveryId: number, nowMs: number): void {
    this.sql("UPDATE jobs SET run_at = ? WHERE id = (SELECT job_id FROM webhook_deliveries WHERE id = ?) AND state = 'pending'").run(nowMs, deliveryId);
    this.sql('UPDATE webhook_deliveries SET next_attempt_at = ?, updated_at = ? WHERE id = ?').run(nowMs * 1000, nowMicros(), deliveryId);
  }

  requeue(deliveryId: number, jobId: number, at: number): void {
    this.sql("UPDATE webhook_deliveries SET status = 'pending', cancel_reason = NULL, job_id = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?").run(jobId, at, nowMicros(), deliveryId);
  }

  item(id: number): WebhookDelivery | undefined {
    const row = this.sql<[number], DeliveryRow>(`${SELECT_DELIVERY} WHERE d.id = ?`).get(id);
    return row ? this.withAttempts([row])[0] : undefined;
  }

  page(webhookId: number, status: DeliveryStatus | null, limit: number, offset: number): { items: WebhookDelivery[]; total: number } {
    const where = 'd.webhook_id = @webhookId AND (@status IS NULL OR d.status = @status)';
    const params = { webhookId, status };
    const total = this.sql<typeof params, { n: number }>(`SELECT count(*) AS n FROM webhook_deliveries d WHERE ${where}`).get(params)!.n;
    const rows = this.sql<typeof params & { limit: number; offset: number }, DeliveryRow>(`${SELECT_DELIVERY} WHERE ${where} ORDER BY d.id DESC LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset });
    return { items: this.withAttempts(rows), total };
  }

  /**
   * Deletes finished deliveries older than `before` (µs), events left without any delivery, and
   * the queue's rows of deliveries that gave up (the log already holds all they said).
   */
  prune(before: number, jobKind: string): number {
    const n = this.sql("DELETE FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ?").run(before).changes;
    this.sql('DELETE FROM webhook_events WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)').run();
    this.sql("DELETE FROM jobs WHERE kind = ? AND state = 'failed'").run(jobKind);
    return n;
  }

  private withAttempts(rows: DeliveryRow[]): WebhookDelivery[] {
    if (!rows.length) return [];
    const attempts = this
      .sql<[string], AttemptRow>('SELECT * FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt')
      .all(JSON.stringify(rows.map((r) => r.id)));
    const byDelivery = new Map<number, AttemptRow[]>();
    for (const a of attempts) byDelivery.set(a.delivery_id, [...(byDelivery.get(a.delivery_id) ?? []), a]);
    return rows.map((r) => {
      const list = byDelivery.get(r.id) ?? [];
      const last = list[list.length - 1];
      return {
        id: r.id,
        webhook_id: r.webhook_id,
        event_type: r.type,
        message_id: r.message_id,
        status: r.status,
        attempt: r.attempts,
        status_code: last?.status_code ?? null,
        latency_ms: last?.latency_ms ?? null,
        error: r.status === 'canceled' ? r.cancel_reason : (last?.error ?? null),
        next_attempt_at: r.next_attempt_at === null ? null : isoMicros(r.next_attempt_at),
        created_at: isoMicros(r.created_at),
        updated_at: isoMicros(r.updated_at),
        attempts: list.map((a) => ({
          attempt: a.attempt,
          status_code: a.status_code,
          latency_ms: a.latency_ms,
          error: a.error,
          response_body: a.response_body,
          created_at: isoMicros(a.created_at),
        })),
      };
    });
  }
}
