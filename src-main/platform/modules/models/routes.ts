import type { ModelsService } from './service.js';
import type { DownloadsService } from './downloads.js';
import { CURATED_MODELS } from './curated.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { modelOperations } from '../../contract/models.js';

/** ext: the models people have (CONTRACT.md "Models"), first-run setup, and GGUF downloads. */
export function modelRoutes({ models, modelDownloads }: { models: ModelsService; modelDownloads: DownloadsService }) {
  const r = createRouter();
  serveOperations(r, modelOperations, {
    listModels: ({ userId, query }) => models.list(userId, { agentId: query.agent_id, fresh: query.fresh }),
    listModelSources: () => models.sources(),
    getDefaultModel: () => models.defaultModel(),
    listModelCatalog: () => CURATED_MODELS,
    listLocalServers: () => models.localServers(),
    setupModels: ({ userId, body }) => models.setup(userId, body),
    listModelDownloads: () => modelDownloads.list(),
    createModelDownload: ({ body }) => modelDownloads.create(body),
    getModelDownload: ({ params }) => modelDownloads.get(params.id),
    pauseModelDownload: ({ params }) => modelDownloads.pause(params.id),
    resumeModelDownload: ({ params }) => modelDownloads.resume(params.id),
    deleteModelDownload: async ({ params }) => {
      await modelDownloads.remove(params.id);
      return { deleted: true };
    },
  });
  return r;
}
