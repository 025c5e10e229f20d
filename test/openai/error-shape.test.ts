import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import { openAIDialect } from '../../src-main/platform/transports/openai/errors.js';
import { errorResponse } from '../../src-main/platform/transports/http/errors.js';
import { createLogger } from '../../src-main/platform/kernel/log.js';
import { PlatformError } from '../../src-main/platform/kernel/errors.js';

/** The /v1 error dialect on its own, for faults no real request can trigger on purpose. */
describe('openAIDialect', () => {
  const app = new Hono();
  app.onError((err, c) => errorResponse(c, err, createLogger('silent'), c.req.path.startsWith('/v1/') ? openAIDialect : undefined));
  app.get('/v1/boom', () => {
    throw new Error('database exploded at /secret/path');
  });
  app.get('/v1/limited', () => {
    throw new PlatformError(429, 'Too many failed authentication attempts. Try again in 7 seconds.', 'rate_limited', { retryAfter: 7 });
  });
  app.get('/v1/fine', (c) => c.json({ ok: true }));
  app.get('/api/boom', () => {
    throw new Error('x');
  });

  it('a server fault is a 500 server_error with the log reference, never internals', async () => {
    const res = await app.request('/v1/boom');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error.type).toBe('server_error');
    expect(body.error.message).toMatch(/^Server Error: Internal error \(ref [0-9a-f]{8}\)/);
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('keeps Retry-After and maps 429 to rate_limit_error', async () => {
    const res = await app.request('/v1/limited');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect((await res.json()).error).toEqual({ message: 'Too many failed authentication attempts. Try again in 7 seconds.', type: 'rate_limit_error', param: null, code: 'rate_limited' });
  });

  it('leaves successes and other paths alone', async () => {
    expect(await (await app.request('/v1/fine')).json()).toEqual({ ok: true });
    const other = await (await app.request('/api/boom')).json();
    expect(other.message).toBe('Server Error');
    expect(other.error).toMatch(/ref/);
  });
});
