import { describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { createWebhook, deliverySuite, finishExecution, waitForDelivery } from './helpers.js';
import { REQUEST_BODY_CAP } from '../../src-main/platform/modules/webhooks/delivery.js';

/** ext: a delivery opens to the request it sends and the receiver's answer (the app's delivery log shows both). */
describe('a delivery with its request (ext)', () => {
  const { p, receiver } = deliverySuite();

  it('POST /test answers the receiver status and body and the request that was sent, and GET one delivery answers the same', async () => {
    const rx = await receiver(() => ({ status: 500, body: 'database down' }));
    const hook = await createWebhook(p, rx.url);
    const r = await call(p, 'POST', `/api/webhooks/${hook.id}/test`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'failed', status_code: 500, error: 'HTTP 500' });
    expect(r.json.attempts[0]).toMatchObject({ status_code: 500, response_body: 'database down' });
    const [got] = rx.received;
    expect(r.json.request).toEqual({
      method: 'POST',
      url: rx.url,
      headers: { 'content-type': 'application/json', 'user-agent': got.headers['user-agent'], 'webhook-id': got.headers['webhook-id'] },
      body: got.body,
      body_truncated: false,
    });
    const one = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries/${r.json.id}`);
    expect(one.status).toBe(200);
    expect(one.json.request).toEqual(r.json.request);
    // The log's pages stay light: no bodies there.
    const page = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries`);
    expect(page.json.data[0].request).toBeUndefined();
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('shows the first 64 KB of a large event body and says it was cut', async () => {
    const rx = await receiver();
    const hook = await createWebhook(p, rx.url);
    finishExecution(p, { output: 'x'.repeat(REQUEST_BODY_CAP + 10) });
    const d = await waitForDelivery(p, hook.id, (x) => x.status === 'succeeded');
    const one = await call(p, 'GET', `/api/webhooks/${hook.id}/deliveries/${d.id}`);
    expect(one.json.request.body_truncated).toBe(true);
    expect(one.json.request.body).toBe(rx.received[0].body.slice(0, REQUEST_BODY_CAP));
    await call(p, 'DELETE', `/api/webhooks/${hook.id}`);
  });

  it('documents the request in the OpenAPI document', async () => {
    const r = await call(p, 'GET', '/api/openapi.json', { key: null });
    expect(r.json.components.schemas.WebhookDeliveryRequest).toBeDefined();
    const ref = JSON.stringify(r.json.paths['/api/webhooks/{id}/test'].post.responses['200']);
    expect(ref).toContain('WebhookDeliveryDetail');
  });
});
