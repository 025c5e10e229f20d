import { z } from 'zod';
import { httpUrl, IdPath, pageQuery, shapeB } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/** Absolute http(s) URL; other schemes are refused (CONTRACT.md "Webhooks"). */
export const WebhookUrl = httpUrl(say.must('url', 'be a valid http or https URL'));

export const WebhookStatus = z.enum(['active', 'inactive']);

/** The events a webhook can receive (CONTRACT.md "Webhooks"). */
export const WEBHOOK_EVENTS = ['execution.succeeded', 'execution.failed'] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
/**
 * ext: the events a webhook is subscribed to; omitted or empty means all of them. Names the
 * platform does not know (hosted clients send e.g. `AGENT_RESPONSE_CREATED`) are kept and ignored:
 * a webhook that names no known event gets every event (CONTRACT.md "Webhooks from hosted clients").
 */
export const WebhookEvents = z.array(z.string().trim().min(1).max(100)).max(20);
/** ext: what the webhook is for, in the person's words (null or '' clears it). */
export const WebhookDescription = z.string().max(500).nullable();

/** `method` omitted is `POST`: real hosted-platform clients leave it out. */
export const WebhookCreate = z
  .object({ url: WebhookUrl, method: z.enum(['POST']).optional(), status: WebhookStatus.optional(), events: WebhookEvents.optional(), description: WebhookDescription.optional() })
  .meta({ id: 'WebhookCreate' });
export type WebhookCreate = z.infer<typeof WebhookCreate>;

export const WebhookCreated = z
  .object({
    template_id: z.number().int(),
    user_id: z.number().int(),
    url: z.string(),
    method: z.string(),
    status: WebhookStatus,
    updated_at: z.string(),
    created_at: z.string(),
    id: z.number().int(),
    /** ext: the subscribed events (every event when none were chosen). */
    events: z.array(WebhookEvent),
    /** ext: what it is for, as the person wrote it (null when unset). */
    description: z.string().nullable(),
    /** ext: the signing secret, shown at create and on rotation. */
    secret: z.string(),
  })
  .meta({ id: 'WebhookCreated' });

export const Webhook = z
  .object({
    id: z.number().int(),
    template_id: z.number().int(),
    user_id: z.number().int(),
    url: z.string(),
    method: z.string(),
    status: WebhookStatus,
    success_count: z.number().int(),
    failure_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    deleted_at: z.string().nullable(),
    /** ext: the subscribed events (every event when none were chosen). */
    events: z.array(WebhookEvent),
    /** ext: what it is for, as the person wrote it (null when unset). */
    description: z.string().nullable(),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof Webhook>;

export const WebhookPage = shapeB(Webhook).meta({ id: 'WebhookPage' });
export const WebhookListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 });

export const WebhookUpdate = z
  .object({
    url: WebhookUrl.optional(),
    method: z.enum(['POST']).optional(),
    status: WebhookStatus.optional(),
    events: WebhookEvents.optional(),
    description: WebhookDescription.optional(),
    rotate_secret: z.boolean().optional(),
  })
  .meta({ id: 'WebhookUpdate' });
export type WebhookUpdate = z.infer<typeof WebhookUpdate>;
/** ext PATCH answer: the webhook, plus `secret` when it was rotated. */
export const WebhookUpdated = Webhook.extend({ secret: z.string().optional() });
export const WebhookDeleted = z.object({ id: z.number().int(), deleted: z.boolean() });

const tags = ['Webhooks'] as const;

/** The webhook operations (modules/webhooks/routes.ts handles them). */
export const webhookOperations = operations({
  createWebhook: { method: 'post', path: '/agents/{id}/webhooks', tags, summary: 'Create a webhook for an agent', params: IdPath, body: WebhookCreate, response: WebhookCreated, status: 201, notFound: 'Agent' },
  listAgentWebhooks: { method: 'get', path: '/agents/{id}/webhooks', tags, summary: "List an agent's webhooks", params: IdPath, query: WebhookListQuery, response: WebhookPage, notFound: 'Agent' },
  listWebhooks: { method: 'get', path: '/webhooks', tags, summary: 'List webhooks', query: WebhookListQuery, response: WebhookPage },
  updateWebhook: { method: 'patch', path: '/webhooks/{id}', tags, summary: 'Update a webhook in place (ext): url, events, description, status, or rotate_secret; the id, secret and delivery log stay', params: IdPath, body: WebhookUpdate, response: WebhookUpdated, notFound: 'Webhook' },
  deleteWebhook: { method: 'delete', path: '/webhooks/{id}', tags, summary: 'Delete a webhook (ext, soft)', params: IdPath, response: WebhookDeleted, notFound: 'Webhook' },
});
