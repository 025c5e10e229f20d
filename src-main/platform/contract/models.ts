import { z } from 'zod';
import { ErrorBody, IdPath, looseBool } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/** ext: one model the configured providers serve now (CONTRACT.md "Models"). */
export const Model = z
  .object({
    id: z.string(),
    provider: z.string(),
    label: z.string(),
    context_window: z.number().int(),
    /** `listed`: the provider's model list; `option`: one of the agent's `model` options that routes to a configured provider; `file`: a GGUF file */
    source: z.enum(['listed', 'option', 'file']),
  })
  .meta({ id: 'Model' });
export type Model = z.infer<typeof Model>;

export const ModelList = z.array(Model).meta({ id: 'ModelList' });

/** ext: how each enabled provider answered the last listing (a provider that does not answer keeps its error). */
export const ModelSource = z
  .object({ provider: z.string(), label: z.string(), ok: z.boolean(), error: z.string().nullable(), count: z.number().int() })
  .meta({ id: 'ModelSource' });
export type ModelSource = z.infer<typeof ModelSource>;

/** ext: the model an agent run without a `model` answer uses, and where it comes from. */
export const DefaultModel = z
  .object({ model: z.string().nullable(), provider: z.string().nullable(), source: z.enum(['setting', 'first_listed']).nullable() })
  .meta({ id: 'DefaultModel' });
export type DefaultModel = z.infer<typeof DefaultModel>;

export const DOWNLOAD_STATUSES = ['queued', 'downloading', 'paused', 'verifying', 'completed', 'failed'] as const;

/** ext: a GGUF download into the models folder. */
export const ModelDownload = z
  .object({
    id: z.number().int(),
    url: z.string(),
    /** the file's name in the models folder (also the model id once completed) */
    file: z.string(),
    bytes: z.number().int(),
    total: z.number().int().nullable(),
    status: z.enum(DOWNLOAD_STATUSES),
    error: z.string().nullable(),
  })
  .meta({ id: 'ModelDownload' });
export type ModelDownload = z.infer<typeof ModelDownload>;

export const ModelDownloadList = z.array(ModelDownload);

export const ModelDownloadCreate = z
  .object({
    /** an https URL of a .gguf file (a Hugging Face `.../resolve/...` or `.../blob/...` link); http only on loopback */
    url: z.string().min(1).max(2048),
    /** the file's expected SHA-256 (hex); without it the hub's own checksum header is used when it sends one */
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, say.must('sha256', 'be 64 hexadecimal characters'))
      .optional(),
  })
  .meta({ id: 'ModelDownloadCreate' });
export type ModelDownloadCreate = z.infer<typeof ModelDownloadCreate>;

/** ext: a small GGUF chat model offered for download on first run. */
export const CuratedModel = z
  .object({
    name: z.string(),
    file: z.string(),
    url: z.string(),
    size_bytes: z.number().int(),
    license: z.string(),
    good_for: z.string(),
    /** ext: what the file is for (absent: a chat model): an embedder for search, or a reranker. */
    kind: z.enum(['chat', 'embedding', 'reranker']).optional(),
    /** ext: the published SHA-256 the download is checked against; null when none was published (the hub's is used). */
    sha256: z.string().nullable().optional(),
  })
  .meta({ id: 'CuratedModel' });
export type CuratedModel = z.infer<typeof CuratedModel>;

/** ext: a model server found on its usual localhost port (Ollama 11434, LM Studio 1234). */
export const LocalServer = z
  .object({
    kind: z.enum(['ollama', 'lmstudio']),
    name: z.string(),
    url: z.string(),
    found: z.boolean(),
    models: z.array(z.string()),
    /** a provider with this address is configured already */
    configured: z.boolean(),
  })
  .meta({ id: 'LocalServer' });
export type LocalServer = z.infer<typeof LocalServer>;

const setupUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** ext: `POST /api/models/setup`, the first-run panel's one click: adds one provider and lists its models. */
export const ModelSetupBody = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.enum(['ollama', 'lmstudio', 'openai-compatible']), base_url: setupUrl, api_key: z.string().max(2000).nullable().optional() }),
    z.object({ kind: z.literal('anthropic'), api_key: z.string().trim().min(1).max(2000) }),
    z.object({ kind: z.literal('gguf'), models_dir: z.string().trim().min(1).max(4000) }),
  ])
  .meta({ id: 'ModelSetupBody' });
export type ModelSetupBody = z.infer<typeof ModelSetupBody>;

export const ModelSetupResult = z
  .object({ provider: z.string(), ok: z.boolean(), error: z.string().nullable(), models: z.array(Model), default: DefaultModel })
  .meta({ id: 'ModelSetupResult' });

export const ModelsQuery = z.object({
  /** whose `model` options join the list (default: the seeded chat agent) */
  agent_id: z.string().optional(),
  /** ask the providers again instead of the brief cache */
  fresh: looseBool().optional(),
});
export const ModelSourceList = z.array(ModelSource);
export const CuratedModelList = z.array(CuratedModel);
export const LocalServerList = z.array(LocalServer);
export const ModelDownloadDeleted = z.object({ deleted: z.boolean() });

const tags = ['Models'] as const;
const conflict = { 409: ['Conflict', ErrorBody] } as const;

/** ext: the models people have (CONTRACT.md "Models"), first-run setup, and GGUF downloads (modules/models/routes.ts handles them). */
export const modelOperations = operations({
  listModels: { method: 'get', path: '/models', tags, summary: 'What the configured providers serve now, plus the agent’s model options that route to one (ext)', query: ModelsQuery, response: ModelList, notFound: 'Agent' },
  listModelSources: { method: 'get', path: '/models/sources', tags, summary: 'How each provider answered its model listing; a provider that does not answer keeps its error (ext)', response: ModelSourceList },
  getDefaultModel: { method: 'get', path: '/models/default', tags, summary: 'The default model: the setting, else the first configured provider’s first model (ext)', response: DefaultModel },
  listModelCatalog: { method: 'get', path: '/models/catalog', tags, summary: 'Small GGUF chat models to download (ext)', response: CuratedModelList },
  listLocalServers: { method: 'get', path: '/models/local-servers', tags, summary: 'Ollama (11434) and LM Studio (1234) on this computer (ext)', response: LocalServerList },
  setupModels: { method: 'post', path: '/models/setup', tags, summary: 'Add one provider (first run) and list what it serves (ext)', body: ModelSetupBody, response: ModelSetupResult },
  listModelDownloads: { method: 'get', path: '/models/downloads', tags, summary: 'GGUF downloads, newest first (ext)', response: ModelDownloadList },
  createModelDownload: {
    method: 'post',
    path: '/models/downloads',
    tags,
    summary: 'Download a GGUF file into the models folder (ext); size and SHA-256 are checked',
    body: ModelDownloadCreate,
    response: ModelDownload,
    status: 201,
    okDescription: 'Queued',
    errors: conflict,
  },
  getModelDownload: { method: 'get', path: '/models/downloads/{id}', tags, summary: 'One download with its progress (ext)', params: IdPath, response: ModelDownload, notFound: 'Download' },
  pauseModelDownload: { method: 'post', path: '/models/downloads/{id}/pause', tags, summary: 'Pause a download; the partial file stays (ext)', params: IdPath, response: ModelDownload, notFound: 'Download', errors: conflict },
  resumeModelDownload: {
    method: 'post',
    path: '/models/downloads/{id}/resume',
    tags,
    summary: 'Resume a paused or failed download where it stopped (HTTP Range) (ext)',
    params: IdPath,
    response: ModelDownload,
    notFound: 'Download',
    errors: conflict,
  },
  deleteModelDownload: {
    method: 'delete',
    path: '/models/downloads/{id}',
    tags,
    summary: 'Stop and remove a download with its partial file; a completed one removes the model file (ext)',
    params: IdPath,
    response: ModelDownloadDeleted,
    notFound: 'Download',
  },
});
