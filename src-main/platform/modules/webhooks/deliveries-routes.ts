import type { WebhookDeliveryService } from './delivery.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { webhookDeliveryOperations } from '../../contract/webhook-deliveries.js';
import { shapeB } from '../../transports/http/pagination.js';

/** ext: the delivery log of a webhook, redelivery, and a test event (CONTRACT.md "Webhooks"). */
export function webhookDeliveryRoutes({ webhookDeliveries: deliveries }: { webhookDeliveries: WebhookDeliveryService }) {
  const r = createRouter();
  serveOperations(r, webhookDeliveryOperations, {
    listWebhookDeliveries: ({ userId, params, query }, c) => shapeB(c, deliveries.list(userId, params.id, query)),
    getWebhookDelivery: ({ userId, params }) => deliveries.get(userId, params.id, params.deliveryId),
    redeliverWebhookDelivery: ({ userId, params }) => deliveries.redeliver(userId, params.id, params.deliveryId),
    testWebhook: ({ userId, params }) => deliveries.sendTest(userId, params.id),
  });
  return r;
}
