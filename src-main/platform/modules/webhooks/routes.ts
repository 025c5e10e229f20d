import type { WebhooksService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { webhookOperations } from '../../contract/webhooks.js';
import { shapeB } from '../../transports/http/pagination.js';

export function webhookRoutes({ webhooks }: { webhooks: WebhooksService }) {
  const r = createRouter();
  serveOperations(r, webhookOperations, {
    createWebhook: ({ userId, params, body }) => webhooks.create(userId, params.id, body),
    listAgentWebhooks: ({ userId, params, query }, c) => shapeB(c, webhooks.listForAgent(userId, params.id, query)),
    listWebhooks: ({ userId, query }, c) => shapeB(c, webhooks.listAll(userId, query)),
    updateWebhook: ({ userId, params, body }) => webhooks.update(userId, params.id, body),
    deleteWebhook: ({ userId, params }) => webhooks.delete(userId, params.id),
  });
  return r;
}
