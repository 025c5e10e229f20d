import { createRoute } from '@hono/zod-openapi';
import type { WebhooksService } from './service.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { WebhookCreate, WebhookCreated, WebhookDeleted, WebhookListQuery, WebhookPage, WebhookUpdate, WebhookUpdated } from '../../contract/webhooks.js';
import { IdPath } from '../../contract/common.js';
import { shapeB } from '../../transports/http/pagination.js';

export function webhookRoutes({ webhooks }: { webhooks: WebhooksService }) {
  const r = createRouter();
  const tags = ['Webhooks'];

  r.openapi(
    createRoute({
      method: 'post',
      path: '/agents/{id}/webhooks',
      tags,
      summary: 'Create a webhook for an agent',
      request: { params: IdPath, ...jsonBodyOf(WebhookCreate) },
      responses: { 201: { content: { 'application/json': { schema: WebhookCreated } }, description: 'Created' }, ...notFound('Agent'), ...errorResponses },
    }),
    (c) => c.json(webhooks.create(c.get('principal').userId, c.req.valid('param').id, c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/agents/{id}/webhooks', tags, summary: "List an agent's webhooks", request: { params: IdPath, query: WebhookListQuery }, responses: { ...ok(WebhookPage), ...notFound('Agent'), ...errorResponses } }),
    (c) => c.json(shapeB(c, webhooks.listForAgent(c.get('principal').userId, c.req.valid('param').id, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/webhooks', tags, summary: 'List webhooks', request: { query: WebhookListQuery }, responses: { ...ok(WebhookPage), ...errorResponses } }),
    (c) => c.json(shapeB(c, webhooks.listAll(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch',
      path: '/webhooks/{id}',
      tags,
      summary: 'Update a webhook (ext): url, status, or rotate_secret',
      request: { params: IdPath, ...jsonBodyOf(WebhookUpdate) },
      responses: { ...ok(WebhookUpdated), ...notFound('Webhook'), ...errorResponses },
    }),
    (c) => c.json(webhooks.update(c.get('principal').userId, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/webhooks/{id}', tags, summary: 'Delete a webhook (ext, soft)', request: { params: IdPath }, responses: { ...ok(WebhookDeleted), ...notFound('Webhook'), ...errorResponses } }),
    (c) => c.json(webhooks.delete(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  return r;
}
