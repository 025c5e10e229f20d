import { createRoute } from '@hono/zod-openapi';
import type { ProvidersService } from './service.js';
import { createRouter, errorResponses, ok, jsonBodyOf } from '../../transports/http/router.js';
import { ProvidersSettings, ProvidersUpdate, ProviderTestBody, ProviderTestResult } from '../../contract/settings.js';

/** ext: model providers, routing and the web search backend. Secrets go in, never out (`has_api_key`). */
export function settingsRoutes({ providers }: { providers: ProvidersService }) {
  const r = createRouter();
  const tags = ['Settings'];

  r.openapi(
    createRoute({ method: 'get', path: '/settings/providers', tags, summary: 'Model providers, routes and web search (ext)', responses: { ...ok(ProvidersSettings), ...errorResponses } }),
    (c) => c.json(providers.view(), 200),
  );

  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/providers',
      tags,
      summary: 'Replace providers and/or routes, default model, web search (ext); an omitted api_key keeps the stored one',
      request: jsonBodyOf(ProvidersUpdate),
      responses: { ...ok(ProvidersSettings), ...errorResponses },
    }),
    (c) => c.json(providers.update(c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/settings/providers/test',
      tags,
      summary: 'Check that a provider answers and list its models (ext)',
      request: jsonBodyOf(ProviderTestBody),
      responses: { ...ok(ProviderTestResult), ...errorResponses },
    }),
    async (c) => c.json(await providers.test(c.req.valid('json')), 200),
  );

  return r;
}
