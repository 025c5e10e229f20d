import { z } from 'zod';
import { ErrorBody, IdPath, pageQuery, shapeB } from './common.js';
import { operations } from './operation.js';

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

/**
 * ext: what a delivery sends: the receiver's URL (the webhook's current one: retries go there),
 * the headers every attempt carries, and the event's JSON body. `webhook-timestamp` and
 * `webhook-signature` are made afresh at each attempt (the attempt's time, signed with the
 * webhook's secret) and are not kept, so they are not listed here.
 */
export const WebhookDeliveryRequest = z
  .object({
    method: z.string(),
    url: z.string(),
    headers: z.record(z.string(), z.string()),
    /** The first 64 KB of the body. */
    body: z.string(),
    body_truncated: z.boolean(),
  })
  .meta({ id: 'WebhookDeliveryRequest' });
export type WebhookDeliveryRequest = z.infer<typeof WebhookDeliveryRequest>;

/** ext: one delivery with the request it sends (GET one delivery, and the answer to a test send). */
export const WebhookDeliveryDetail = WebhookDelivery.extend({ request: WebhookDeliveryRequest }).meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryPage = shapeB(WebhookDelivery).meta({ id: 'WebhookDeliveryPage' });
export const WebhookDeliveryListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({ status: DeliveryStatus.optional() });

export const WebhookDeliveryPath = z.object({ id: z.string(), deliveryId: z.string() });

const tags = ['Webhooks'] as const;

/** ext: the delivery log of a webhook, redelivery, and a test event (modules/webhooks/deliveries-routes.ts handles them). */
export const webhookDeliveryOperations = operations({
  listWebhookDeliveries: {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    tags,
    summary: "A webhook's delivery log, newest first (ext)",
    params: IdPath,
    query: WebhookDeliveryListQuery,
    response: WebhookDeliveryPage,
    notFound: 'Webhook',
  },
  getWebhookDelivery: {
    method: 'get',
    path: '/webhooks/{id}/deliveries/{deliveryId}',
    tags,
    summary: 'One delivery with its attempts and the request it sends (ext)',
    params: WebhookDeliveryPath,
    response: WebhookDeliveryDetail,
    notFound: 'Webhook or delivery',
  },
  redeliverWebhookDelivery: {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    tags,
    summary: 'Send a delivery again, same webhook-id, fresh retry schedule (ext)',
    params: WebhookDeliveryPath,
    response: WebhookDelivery,
    status: 202,
    okDescription: 'Queued',
    notFound: 'Webhook or delivery',
    errors: { 409: ['The webhook is inactive, or the delivery is being attempted right now', ErrorBody] },
  },
  testWebhook: {
    method: 'post',
    path: '/webhooks/{id}/test',
    tags,
    summary: "Send a webhook.test event now and answer with the attempt: the receiver's status, answer and duration (ext)",
    params: IdPath,
    response: WebhookDeliveryDetail,
    notFound: 'Webhook',
  },
});
