import { z } from 'zod';
import { pageQuery, shapeB } from './common.js';

export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'canceled']);

/** One try at sending an event to a webhook. */
export const WebhookDeliveryAttempt = z
  .object({
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    /** The first 4 KB of the receiver's answer. */
    response_body: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

/**
 * ext: one event sent (or being sent) to one webhook. `message_id` is the `webhook-id` header,
 * the same on every attempt. The top-level `status_code`, `latency_ms`, `error` are those of the
 * latest attempt (null before the first).
 */
export const WebhookDelivery = z
  .object({
    id: z.number().int(),
    webhook_id: z.number().int(),
    event_type: z.string(),
    message_id: z.string(),
    status: DeliveryStatus,
    attempt: z.number().int(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    attempts: z.array(WebhookDeliveryAttempt),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryPage = shapeB(WebhookDelivery).meta({ id: 'WebhookDeliveryPage' });
export const WebhookDeliveryListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({ status: DeliveryStatus.optional() });

export const WebhookDeliveryPath = z.object({ id: z.string(), deliveryId: z.string() });
