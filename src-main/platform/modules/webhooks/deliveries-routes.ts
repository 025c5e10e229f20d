import { createRoute } from '@hono/zod-openapi';
import type { WebhookDeliveryService } from './delivery.js';
import { createRouter, errorResponses, notFound, ok } from '../../transports/http/router.js';
import { ErrorBody, IdPath } from '../../contract/common.js';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryListQuery, WebhookDeliveryPage, WebhookDeliveryPath } from '../../contract/webhook-deliveries.js';
import { shapeB } from '../../transports/http/pagination.js';

const conflict = { 409: { content: { 'application/json': { schema: ErrorBody } }, description: 'The webhook is inactive, or the delivery is being attempted right now' } };

/** ext: the delivery log of a webhook, redelivery, and a test event (CONTRACT.md "Webhooks"). */
export function webhookDeliveryRoutes({ webhookDeliveries }: { webhookDeliveries: WebhookDeliveryService }) {
  const r = createRouter();
  const deliveries = webhookDeliveries;
  const tags = ['Webhooks'];

  r.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks/{id}/deliveries',
      tags,
      summary: "A webhook's delivery log, newest first (ext)",
      request: { params: IdPath, query: WebhookDeliveryListQuery },
      responses: { ...ok(WebhookDeliveryPage), ...notFound('Webhook'), ...errorResponses },
    }),
    (c) => c.json(shapeB(c, deliveries.list(c.get('principal').userId, c.req.valid('param').id, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/webhooks/{id}/deliveries/{deliveryId}',
      tags,
      summary: 'One delivery with its attempts and the request it sends (ext)',
      request: { params: WebhookDeliveryPath },
      responses: { ...ok(WebhookDeliveryDetail), ...notFound('Webhook or delivery'), ...errorResponses },
    }),
    (c) => {
      const { id, deliveryId } = c.req.valid('param');
      return c.json(deliveries.get(c.get('principal').userId, id, deliveryId), 200);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
      tags,
      summary: 'Send a delivery again, same webhook-id, fresh retry schedule (ext)',
      request: { params: WebhookDeliveryPath },
      responses: { 202: { content: { 'application/json': { schema: WebhookDelivery } }, description: 'Queued' }, ...notFound('Webhook or delivery'), ...conflict, ...errorResponses },
    }),
    (c) => {
      const { id, deliveryId } = c.req.valid('param');
      return c.json(deliveries.redeliver(c.get('principal').userId, id, deliveryId), 202);
    },
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/webhooks/{id}/test',
      tags,
      summary: "Send a webhook.test event now and answer with the attempt: the receiver's status, answer and duration (ext)",
      request: { params: IdPath },
      responses: { ...ok(WebhookDeliveryDetail), ...notFound('Webhook'), ...errorResponses },
    }),
    async (c) => c.json(await deliveries.sendTest(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  return r;
}
