import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectMessage, expectShapeB, expectWebhook, ISO_MICROS, WEBHOOK_CREATED_KEYS, keysOf, sorted } from './spec-shapes.js';

describe('webhooks', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));
  const hook = { url: 'http://localhost:5678/webhook/abc', method: 'POST' };

  it('POST /api/agents/{id}/webhooks: 201 with the create shape (+ ext secret)', async () => {
    const r = await call(p, 'POST', '/api/agents/1/webhooks', { body: hook });
    expect(r.status).toBe(201);
    expect(sorted(r.json)).toEqual(keysOf(WEBHOOK_CREATED_KEYS));
    expect(r.json).toMatchObject({ template_id: 1, user_id: 1, url: hook.url, method: 'POST', status: 'active' });
    expect(Number.isInteger(r.json.id)).toBe(true);
    expect(r.json.created_at).toMatch(ISO_MICROS);
    expect(r.json.updated_at).toMatch(ISO_MICROS);
    expect(r.json.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const inactive = await call(p, 'POST', '/api/agents/1/webhooks', { body: { ...hook, url: 'https://example.com/h', status: 'inactive' } });
    expect(inactive.status).toBe(201);
    expect(inactive.json.status).toBe('inactive');
  });

  it('refuses bad bodies with 422 and unknown agents with 404', async () => {
    expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { method: 'POST' } }), 'url', 'The url field is required.');
    expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { ...hook, method: 'GET' } }), 'method', 'The selected method is invalid.');
    expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { ...hook, status: 'paused' } }), 'status', 'The selected status is invalid.');
    for (const url of ['ftp://example.com/x', 'not a url', '/relative', 'javascript:alert(1)']) {
      expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { ...hook, url } }), 'url');
    }
    expect422(await call(p, 'POST', '/api/agents/1/webhooks', { body: { ...hook, url: 42 } }), 'url', 'The url field must be a string.');
    expectMessage(await call(p, 'POST', '/api/agents/999999/webhooks', { body: hook }), 404, 'Agent not found');
    expectMessage(await call(p, 'POST', '/api/agents/abc/webhooks', { body: hook }), 404, 'Agent not found');
  });

  it("GET /api/agents/{id}/webhooks lists that agent's; GET /api/webhooks lists all (shape B)", async () => {
    const other = (await call(p, 'POST', '/api/agents', { body: { title: 'Hooked' } })).json;
    const w = (await call(p, 'POST', `/api/agents/${other.id}/webhooks`, { body: hook })).json;
    const forAgent = await call(p, 'GET', `/api/agents/${other.id}/webhooks`);
    expect(forAgent.status).toBe(200);
    expectShapeB(forAgent.json);
    forAgent.json.data.forEach(expectWebhook);
    expect(forAgent.json.data.map((x: any) => x.id)).toEqual([w.id]);
    expect(forAgent.json.data[0]).toMatchObject({ template_id: other.id, success_count: 0, failure_count: 0, deleted_at: null, created_at: w.created_at });
    expect(forAgent.json.path).toBe(`http://127.0.0.1:8787/api/agents/${other.id}/webhooks`);

    const all = await call(p, 'GET', '/api/webhooks');
    expectShapeB(all.json);
    all.json.data.forEach(expectWebhook);
    expect(all.json.total).toBe(3);
    expect(all.json.path).toBe('http://127.0.0.1:8787/api/webhooks');
    expectMessage(await call(p, 'GET', '/api/agents/999999/webhooks'), 404, 'Agent not found');
    expect422(await call(p, 'GET', '/api/webhooks?page=0'), 'page');
    expect422(await call(p, 'GET', '/api/webhooks?per_page=101'), 'per_page');
    expect422(await call(p, 'GET', `/api/agents/${other.id}/webhooks?per_page=0`), 'per_page');
  });

  it('ext PATCH /api/webhooks/{id}: url, status, rotate_secret', async () => {
    const w = (await call(p, 'POST', '/api/agents/1/webhooks', { body: hook })).json;
    const r = await call(p, 'PATCH', `/api/webhooks/${w.id}`, { body: { status: 'inactive', url: 'https://example.org/x' } });
    expect(r.status).toBe(200);
    expectWebhook(r.json);
    expect(r.json).toMatchObject({ id: w.id, status: 'inactive', url: 'https://example.org/x' });
    const rot = await call(p, 'PATCH', `/api/webhooks/${w.id}`, { body: { rotate_secret: true } });
    expect(rot.json.secret).toMatch(/^whsec_/);
    expect(rot.json.secret).not.toBe(w.secret);
    expect422(await call(p, 'PATCH', `/api/webhooks/${w.id}`, { body: { status: 'on' } }), 'status');
    expect422(await call(p, 'PATCH', `/api/webhooks/${w.id}`, { body: { url: 'ftp://x' } }), 'url');
    expectMessage(await call(p, 'PATCH', '/api/webhooks/999999', { body: {} }), 404, 'Webhook not found');
  });

  it('ext DELETE /api/webhooks/{id} is soft: lists leave it out, then 404', async () => {
    const w = (await call(p, 'POST', '/api/agents/1/webhooks', { body: hook })).json;
    const before = (await call(p, 'GET', '/api/webhooks?per_page=100')).json.total;
    const d = await call(p, 'DELETE', `/api/webhooks/${w.id}`);
    expect(d.status).toBe(200);
    expect(d.json).toEqual({ id: w.id, deleted: true });
    const after = (await call(p, 'GET', '/api/webhooks?per_page=100')).json;
    expect(after.total).toBe(before - 1);
    expect(after.data.map((x: any) => x.id)).not.toContain(w.id);
    expect((await call(p, 'GET', '/api/agents/1/webhooks?per_page=100')).json.data.map((x: any) => x.id)).not.toContain(w.id);
    expectMessage(await call(p, 'DELETE', `/api/webhooks/${w.id}`), 404, 'Webhook not found');
    expectMessage(await call(p, 'PATCH', `/api/webhooks/${w.id}`, { body: { status: 'active' } }), 404, 'Webhook not found');
  });
});
