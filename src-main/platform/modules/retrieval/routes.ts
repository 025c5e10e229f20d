import type { RetrievalService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { retrievalOperations } from '../../contract/retrieval.js';
import type { FilesService } from '../files/service.js';

/** ext: the embedder behind hybrid retrieval (Settings → Retrieval), and a file's passages for the file viewer. */
export function retrievalRoutes({ retrieval, files }: { retrieval: RetrievalService; files: FilesService }) {
  const r = createRouter();
  serveOperations(r, retrievalOperations, {
    getEmbeddingSettings: () => retrieval.view(),
    updateEmbeddingSettings: ({ body }) => retrieval.update(body),
    listFilePassages: ({ userId, params, query }) => {
      const page = files.passages(userId, params.fileId, query);
      return { total: page.total, offset: query.offset, passages: page.passages };
    },
  });
  return r;
}
