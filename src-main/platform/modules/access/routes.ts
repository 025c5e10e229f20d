import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { KeysService } from './keys.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { IdPath } from '../../contract/common.js';
import { ApiKey, ApiKeyCreate, ApiKeyCreated } from '../../contract/keys.js';
import { NotFoundError } from '../../kernel/errors.js';
import { parseId } from '../../kernel/context.js';

/** ext: API key management for the app's Settings (the key itself is shown once). */
export function keyRoutes({ keys }: { keys: KeysService }) {
  const r = createRouter();
  const tags = ['API keys'];
  const id = (raw: string) => {
    const n = parseId(raw);
    if (!n) throw new NotFoundError('API key not found');
    return n;
  };

  r.openapi(
    createRoute({ method: 'get', path: '/keys', tags, summary: 'List API keys (ext)', responses: { ...ok(z.object({ data: z.array(ApiKey) })), ...errorResponses } }),
    (c) => c.json({ data: keys.list(c.get('principal').userId) }, 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/keys', tags, summary: 'Create an API key (ext)', request: jsonBodyOf(ApiKeyCreate), responses: { 201: { content: { 'application/json': { schema: ApiKeyCreated } }, description: 'Created; `key` is shown only now' }, ...errorResponses } }),
    (c) => {
      const { key, info } = keys.create(c.get('principal').userId, c.req.valid('json').name);
      return c.json({ ...info, key }, 201);
    },
  );
  r.openapi(
    createRoute({ method: 'delete', path: '/keys/{id}', tags, summary: 'Revoke an API key (ext)', request: { params: IdPath }, responses: { ...ok(ApiKey), ...notFound('API key'), ...errorResponses } }),
    (c) => c.json(keys.revoke(c.get('principal').userId, id(c.req.valid('param').id)), 200),
  );
  return r;
}
