import { createRoute } from '@hono/zod-openapi';
import type { RetrievalService } from './service.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { EmbeddingSettings, EmbeddingSettingsUpdate, FilePassagesPage, FilePassagesQuery } from '../../contract/retrieval.js';
import type { FilesService } from '../files/service.js';
import { z } from 'zod';

const FilePath = z.object({ fileId: z.string() });

/** ext: the embedder behind hybrid retrieval (Settings → Retrieval), and a file's passages for the file viewer. */
export function retrievalRoutes({ retrieval, files }: { retrieval: RetrievalService; files: FilesService }) {
  const r = createRouter();
  const tags = ['Retrieval'];
  r.openapi(
    createRoute({ method: 'get', path: '/settings/embeddings', tags, summary: 'The embedder and its background progress (ext)', responses: { ...ok(EmbeddingSettings), ...errorResponses } }),
    (c) => c.json(retrieval.view(), 200),
  );
  r.openapi(
    createRoute({
      method: 'put',
      path: '/settings/embeddings',
      tags,
      summary: 'Choose the embedder (ext); a different one re-embeds in the background while search keeps working (bm25 alone until done)',
      request: jsonBodyOf(EmbeddingSettingsUpdate),
      responses: { ...ok(EmbeddingSettings), ...errorResponses },
    }),
    async (c) => c.json(await retrieval.update(c.req.valid('json')), 200),
  );
  r.openapi(
    createRoute({
      method: 'get',
      path: '/files/{fileId}/passages',
      tags,
      summary: "A file's extracted text, passage by passage in order (ext); the ordinal is a citation's `position`",
      request: { params: FilePath, query: FilePassagesQuery },
      responses: { ...ok(FilePassagesPage), ...notFound('File'), ...errorResponses },
    }),
    (c) => {
      const q = c.req.valid('query');
      const page = files.passages(c.get('principal').userId, c.req.valid('param').fileId, q);
      return c.json({ total: page.total, offset: q.offset, passages: page.passages }, 200);
    },
  );
  return r;
}
