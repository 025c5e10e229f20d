import { createRoute } from '@hono/zod-openapi';
import type { RetrievalService } from './service.js';
import { createRouter, errorResponses, ok, jsonBodyOf, bearer } from '../../transports/http/router.js';
import { EmbeddingSettings, EmbeddingSettingsUpdate } from '../../contract/retrieval.js';

/** ext: the embedder behind hybrid retrieval (Settings → Retrieval). */
export function retrievalRoutes({ retrieval }: { retrieval: RetrievalService }) {
  const r = createRouter();
  const tags = ['Retrieval'];
  r.openapi(
    createRoute({ method: 'get', path: '/settings/embeddings', tags, security: bearer, summary: 'The embedder and its background progress (ext)', responses: { ...ok(EmbeddingSettings), ...errorResponses } }),
    (c) => c.json(retrieval.view(), 200),
  );
  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/embeddings',
      tags,
      security: bearer,
      summary: 'Choose the embedder (ext); a different one re-embeds in the background while search keeps working (bm25 alone until done)',
      request: jsonBodyOf(EmbeddingSettingsUpdate),
      responses: { ...ok(EmbeddingSettings), ...errorResponses },
    }),
    async (c) => c.json(await retrieval.update(c.req.valid('json')), 200),
  );
  return r;
}
