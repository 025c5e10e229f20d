import { createRoute } from '@hono/zod-openapi';
import { z } from 'zod';
import type { ModelsService } from './service.js';
import type { DownloadsService } from './downloads.js';
import { CURATED_MODELS } from './curated.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { IdPath, ErrorBody, looseBool } from '../../contract/common.js';
import { CuratedModel, DefaultModel, LocalServer, ModelDownload, ModelDownloadCreate, ModelDownloadList, ModelList, ModelSetupBody, ModelSetupResult, ModelSource } from '../../contract/models.js';

const ModelsQuery = z.object({
  /** whose `model` options join the list (default: the seeded chat agent) */
  agent_id: z.string().optional(),
  /** ask the providers again instead of the brief cache */
  fresh: looseBool().optional(),
});

const conflict = { 409: { content: { 'application/json': { schema: ErrorBody } }, description: 'Conflict' } };

/** ext: the models people have (CONTRACT.md "Models"), first-run setup, and GGUF downloads. */
export function modelRoutes({ models, modelDownloads }: { models: ModelsService; modelDownloads: DownloadsService }) {
  const r = createRouter();
  const tags = ['Models'];

  r.openapi(
    createRoute({ method: 'get', path: '/models', tags, summary: 'What the configured providers serve now, plus the agent’s model options that route to one (ext)', request: { query: ModelsQuery }, responses: { ...ok(ModelList), ...notFound('Agent'), ...errorResponses } }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await models.list(c.get('principal').userId, { agentId: q.agent_id, fresh: q.fresh }), 200);
    },
  );
  r.openapi(
    createRoute({ method: 'get', path: '/models/sources', tags, summary: 'How each provider answered its model listing; a provider that does not answer keeps its error (ext)', responses: { ...ok(z.array(ModelSource)), ...errorResponses } }),
    async (c) => c.json(await models.sources(), 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/models/default', tags, summary: 'The default model: the setting, else the first configured provider’s first model (ext)', responses: { ...ok(DefaultModel), ...errorResponses } }),
    async (c) => c.json(await models.defaultModel(), 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/models/catalog', tags, summary: 'Small GGUF chat models to download (ext)', responses: { ...ok(z.array(CuratedModel)), ...errorResponses } }),
    (c) => c.json(CURATED_MODELS, 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/models/local-servers', tags, summary: 'Ollama (11434) and LM Studio (1234) on this computer (ext)', responses: { ...ok(z.array(LocalServer)), ...errorResponses } }),
    async (c) => c.json(await models.localServers(), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/models/setup', tags, summary: 'Add one provider (first run) and list what it serves (ext)', request: jsonBodyOf(ModelSetupBody), responses: { ...ok(ModelSetupResult), ...errorResponses } }),
    async (c) => c.json(await models.setup(c.get('principal').userId, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/models/downloads', tags, summary: 'GGUF downloads, newest first (ext)', responses: { ...ok(ModelDownloadList), ...errorResponses } }),
    (c) => c.json(modelDownloads.list(), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/models/downloads',
      tags,
      summary: 'Download a GGUF file into the models folder (ext); size and SHA-256 are checked',
      request: jsonBodyOf(ModelDownloadCreate),
      responses: { 201: { content: { 'application/json': { schema: ModelDownload } }, description: 'Queued' }, ...conflict, ...errorResponses },
    }),
    (c) => c.json(modelDownloads.create(c.req.valid('json')), 201),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/models/downloads/{id}', tags, summary: 'One download with its progress (ext)', request: { params: IdPath }, responses: { ...ok(ModelDownload), ...notFound('Download'), ...errorResponses } }),
    (c) => c.json(modelDownloads.get(c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/models/downloads/{id}/pause', tags, summary: 'Pause a download; the partial file stays (ext)', request: { params: IdPath }, responses: { ...ok(ModelDownload), ...notFound('Download'), ...conflict, ...errorResponses } }),
    async (c) => c.json(await modelDownloads.pause(c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'post', path: '/models/downloads/{id}/resume', tags, summary: 'Resume a paused or failed download where it stopped (HTTP Range) (ext)', request: { params: IdPath }, responses: { ...ok(ModelDownload), ...notFound('Download'), ...conflict, ...errorResponses } }),
    (c) => c.json(modelDownloads.resume(c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({ method: 'delete', path: '/models/downloads/{id}', tags, summary: 'Stop and remove a download with its partial file; a completed one removes the model file (ext)', request: { params: IdPath }, responses: { ...ok(z.object({ deleted: z.boolean() })), ...notFound('Download'), ...errorResponses } }),
    async (c) => {
      await modelDownloads.remove(c.req.valid('param').id);
      return c.json({ deleted: true }, 200);
    },
  );
  return r;
}
