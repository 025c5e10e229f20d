import type { z } from 'zod';
import type { AgentCreate, AgentUpdate } from '../../src-main/platform/contract/agents';
import { memoryOperations as M } from '../../src-main/platform/contract/memories';
import { agentOperations } from '../../src-main/platform/contract/agents';
import { keyOperations } from '../../src-main/platform/contract/keys';
import { appOperations } from '../../src-main/platform/contract/app-settings';
import { usageOperations } from '../../src-main/platform/contract/usage';
import { pathOf, queryOf, type Answer, type CallInput, type Operation } from '../../src-main/platform/contract/operation';
import { webhookOperations as W } from '../../src-main/platform/contract/webhooks';
import type { ExecutionEvent } from '../../src-main/platform/contract/executions';
import { executionOperations as X } from '../../src-main/platform/contract/executions';
import { sessionOperations as SS } from '../../src-main/platform/contract/sessions';
import { fileOperations as F } from '../../src-main/platform/contract/files';
import { webhookDeliveryOperations as WD } from '../../src-main/platform/contract/webhook-deliveries';
import { scheduleOperations as S, type ScheduleCreate, type ScheduleUpdate } from '../../src-main/platform/contract/schedules';
import type { ProvidersUpdate, ProviderInput } from '../../src-main/platform/contract/settings';
import type { GpuInfo, LocalhostSettingsUpdate } from '../../src-main/platform/contract/app-settings';
import { ocrOperations } from '../../src-main/platform/contract/ocr';
import { retrievalOperations } from '../../src-main/platform/contract/retrieval';
import type { ModelSetupBody } from '../../src-main/platform/contract/models';
import type { McpImport, McpServerCreate, McpServerUpdate } from '../../src-main/platform/contract/tools';
import { modelOperations } from '../../src-main/platform/contract/models';
import { providerOperations } from '../../src-main/platform/contract/settings';
import { mcpServerOperations } from '../../src-main/platform/contract/tools';
import { stepApprovalOperations } from '../../src-main/platform/contract/step-approvals';
import { remoteOperations } from '../../src-main/platform/contract/remote';
import { audioOperations, voiceOperations, type VoiceSettingsUpdate } from '../../src-main/platform/contract/audio';
import { ApiError, errorFrom } from './errors';
import { t as tr } from '../i18n';
import { readExecutionEvents } from './sse';
import type { RawResponse, Transport } from './transport';

/** Agent and template list filters as screens hold them: `type` is the filter's text (the platform answers 422 for an unknown one). */
type AgentFilters<O extends Operation> = Omit<NonNullable<CallInput<O>['query']>, 'type'> & { type?: string };

/** What the app sends to execute (a type, not an interface, so it is a body the operation takes). */
export type ExecuteBody = {
  answers: Record<string, unknown>;
  messages?: { role: 'user' | 'assistant' | 'developer'; content: string }[];
  file_ids?: number[];
  /** ext: continue after this execution / answer again beside it (branches of a session) */
  parent_id?: number;
  alternative_of?: number;
};

/** The one typed client: every call parses the answer with the contract, whatever the transport. */
/** The address of an operation with its path and query filled: the one way the renderer names a URL. */
export const urlOf = (o: Operation, input: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): string =>
  `${o.base ?? '/api'}${pathOf(o, input.params)}${queryOf(input.query)}`;

export function createClient(t: Transport) {
  const read = <S extends z.ZodType>(schema: S, res: RawResponse): z.infer<S> => {
    if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
    let json: unknown;
    try {
      json = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      throw new ApiError(res.status, tr('errors.notJson'));
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiError(res.status, tr('errors.unexpected', { detail: `${parsed.error.issues[0]?.message ?? 'invalid shape'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}` }));
    return parsed.data;
  };
  const call = async <S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown): Promise<z.infer<S>> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return read(schema, await t.request({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  /** A declared operation's URL path: its base, its path with the params, its query. */
  /** Calls a declared operation: path, query and body as its declaration says; the answer parsed by its schema. */
  const op = <O extends Operation>(o: O, input: CallInput<O>): Promise<Answer<O>> => call(o.response, o.method.toUpperCase(), urlOf(o, input), input.body) as Promise<Answer<O>>;
  /** Sends a declared upload operation's multipart body through the transport (with progress where it can tell); the answer parsed by its schema. */
  const sendUpload = async <O extends Operation>(o: O, input: CallInput<O>, form: FormData, h: Parameters<Transport['upload']>[2]): Promise<Answer<O>> =>
    read(o.response, await t.upload(urlOf(o, input), form, h)) as Answer<O>;

  return {
    transport: t.kind,
    agents: {
      list: (query: AgentFilters<typeof agentOperations.listAgents> = {}) => op(agentOperations.listAgents, { query: query as CallInput<typeof agentOperations.listAgents>['query'] }),
      get: (id: number) => op(agentOperations.getAgent, { params: { id: String(id) } }),
      create: (body: AgentCreate) => op(agentOperations.createAgent, { body }),
      update: (id: number, body: AgentUpdate) => op(agentOperations.updateAgent, { params: { id: String(id) }, body }),
      delete: (id: number) => op(agentOperations.deleteAgent, { params: { id: String(id) } }),
      files: (id: number) => op(F.listAgentFiles, { params: { agentId: String(id) } }),
      linkFiles: (id: number, fileIds: number[]) => op(F.linkAgentFiles, { params: { agentId: String(id) }, body: { file_ids: fileIds } }),
      unlinkFile: (id: number, fileId: number) => op(F.unlinkAgentFile, { params: { agentId: String(id), fileId: String(fileId) } }),
    },
    resources: {
      list: (query: AgentFilters<typeof agentOperations.listResources> = {}) => op(agentOperations.listResources, { query: query as CallInput<typeof agentOperations.listResources>['query'] }),
    },
    executions: {
      /**
       * Streams an execution: `onEvent` sees each event (a `running` event's output is the new
       * text only). Resolves with the last event; a `failed` one is returned, not thrown.
       */
      stream: (agentId: number, body: ExecuteBody, onEvent: (e: ExecutionEvent) => void, signal?: AbortSignal): Promise<ExecutionEvent | null> =>
        readExecutionEvents(
          t,
          { method: 'POST', path: urlOf(X.executeAgent, { params: { id: String(agentId) } }), headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ ...body, stream: true }) },
          onEvent,
          signal,
        ),
      /**
       * ext: re-attaches to an execution's events (its output so far, then live, to the last).
       * `onEvent` also gets each event's id: the characters held once it is applied, which
       * `lastEventId` takes to resume after them.
       */
      attach: (id: number, onEvent: (e: ExecutionEvent, eventId?: string) => void, opts: { lastEventId?: string; signal?: AbortSignal } = {}): Promise<ExecutionEvent | null> =>
        readExecutionEvents(
          t,
          { method: 'GET', path: urlOf(X.streamAgentResponse, { params: { id: String(id) } }), headers: { accept: 'text/event-stream', ...(opts.lastEventId !== undefined ? { 'last-event-id': opts.lastEventId } : {}) } },
          onEvent,
          opts.signal,
        ),
      start: (agentId: number, body: ExecuteBody) => op(X.executeAgent, { params: { id: String(agentId) }, body }),
      get: (id: number) => op(X.getAgentResponse, { params: { id: String(id) } }),
      cancel: (id: number) => op(X.cancelAgentResponse, { params: { id: String(id) } }),
    },
    sessions: {
      list: (query: CallInput<typeof SS.listSessions>['query'] = {}) => op(SS.listSessions, { query }),
      get: (id: number) => op(SS.getSession, { params: { id: String(id) } }),
      delete: (id: number) => op(SS.deleteSession, { params: { id: String(id) } }),
      rename: (id: number, title: string) => op(SS.renameSession, { params: { id: String(id) }, body: { title } }),
      /** ext: any of title, pinned, archived, the session's own instructions and options. */
      update: (id: number, body: CallInput<typeof SS.renameSession>['body']) => op(SS.renameSession, { params: { id: String(id) }, body }),
      /** ext: the session as a file (Markdown or JSON): its text and the name the platform gives it. */
      exportFile: async (id: number, format: 'md' | 'json'): Promise<{ text: string; filename: string; type: string }> => {
        const res = await t.request({ method: 'GET', path: urlOf(SS.exportSession, { params: { id: String(id) }, query: { format } }) });
        if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
        const cd = res.headers['content-disposition'] ?? '';
        const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(cd)?.[1];
        const plain = /filename="([^"]*)"/i.exec(cd)?.[1];
        return { text: res.text, filename: utf8 ? decodeURIComponent(utf8) : (plain ?? `conversation.${format}`), type: res.headers['content-type'] ?? 'text/plain' };
      },
      /** ext: one turn asked of 2–4 models at once, each answer its own execution (follow each with executions.attach). */
      compare: (agentId: number, body: ExecuteBody & { models: string[] }) => op(SS.compareModels, { params: { id: String(agentId) }, body }),
    },
    files: {
      /** One page; `status` and `q` are the server's ext filters (empty means any). */
      list: (query: CallInput<typeof F.listFiles>['query'] = {}) => op(F.listFiles, { query: { per_page: 100, ...query } }),
      get: (id: number) => op(F.getFile, { params: { fileId: String(id) } }),
      upload(file: File, opts: { process?: boolean; onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {}) {
        const form = new FormData();
        form.append('file', file, file.name);
        if (opts.process) form.append('process', 'true');
        return sendUpload(F.uploadFile, {}, form, { onProgress: opts.onProgress, signal: opts.signal });
      },
      process: (id: number) => op(F.processFile, { params: { fileId: String(id) } }),
      delete: (id: number) => op(F.deleteFile, { params: { fileId: String(id) } }),
      /** ext: the text read from the file, whole (up to maxChars) */
      text: (id: number, maxChars?: number) => op(F.getFileText, { params: { fileId: String(id) }, query: maxChars ? { max_chars: maxChars } : {} }),
      /** ext: the extracted text, passage by passage (the file viewer) */
      passages: (id: number, query: CallInput<typeof retrievalOperations.listFilePassages>['query'] = {}) =>
        op(retrievalOperations.listFilePassages, { params: { fileId: String(id) }, query: { limit: 500, ...query } }),
    },
    memories: {
      list: (query: CallInput<typeof M.listMemories>['query'] = {}) => op(M.listMemories, { query }),
      create: (memory: string, collectionId?: number | null) => op(M.createMemory, { body: { memory, collection_id: collectionId ?? undefined } }),
      /** collectionId null moves the memory to the default collection (made on first use); undefined keeps its collection. */
      update: (id: number, memory: string, collectionId?: number | null) => op(M.updateMemory, { params: { memoryId: String(id) }, body: { memory, collection_id: collectionId } }),
      delete: (id: number) => op(M.deleteMemory, { params: { memoryId: String(id) } }),
    },
    collections: {
      list: (query: CallInput<typeof M.listCollections>['query'] = {}) => op(M.listCollections, { query: { per_page: 50, ...query } }),
      create: (name: string) => op(M.createCollection, { body: { name } }),
      rename: (id: number, name: string) => op(M.renameCollection, { params: { collectionId: String(id) }, body: { name } }),
      delete: (id: number) => op(M.deleteCollection, { params: { collectionId: String(id) } }),
    },
    webhooks: {
      listForAgent: (agentId: number, query: CallInput<typeof W.listAgentWebhooks>['query'] = {}) =>
        op(W.listAgentWebhooks, { params: { id: String(agentId) }, query: { per_page: 100, ...query } }),
      listAll: (query: CallInput<typeof W.listWebhooks>['query'] = {}) => op(W.listWebhooks, { query: { per_page: 100, ...query } }),
      create: (agentId: number, body: Omit<CallInput<typeof W.createWebhook>['body'], 'method'>) => op(W.createWebhook, { params: { id: String(agentId) }, body: { method: 'POST', ...body } }),
      /** In place: the id, the secret (unless rotated) and the delivery log stay. */
      update: (id: number, body: CallInput<typeof W.updateWebhook>['body']) => op(W.updateWebhook, { params: { id: String(id) }, body }),
      delete: (id: number) => op(W.deleteWebhook, { params: { id: String(id) } }),
      deliveries: (id: number) => op(WD.listWebhookDeliveries, { params: { id: String(id) }, query: { per_page: 50 } }),
      test: (id: number) => op(WD.testWebhook, { params: { id: String(id) } }),
      delivery: (id: number, deliveryId: number) => op(WD.getWebhookDelivery, { params: { id: String(id), deliveryId: String(deliveryId) } }),
      redeliver: (id: number, deliveryId: number) => op(WD.redeliverWebhookDelivery, { params: { id: String(id), deliveryId: String(deliveryId) } }),
    },
    schedules: {
      list: (query: CallInput<typeof S.listSchedules>['query'] = {}) => op(S.listSchedules, { query: { per_page: 100, ...query } }),
      create: (body: z.input<typeof ScheduleCreate>) => op(S.createSchedule, { body }),
      update: (id: number, body: ScheduleUpdate) => op(S.updateSchedule, { params: { id: String(id) }, body }),
      delete: (id: number) => op(S.deleteSchedule, { params: { id: String(id) } }),
      runs: (id: number, query: CallInput<typeof S.listScheduleRuns>['query'] = {}) => op(S.listScheduleRuns, { params: { id: String(id) }, query: { per_page: 20, ...query } }),
    },
    keys: {
      list: () => op(keyOperations.listKeys, {}),
      create: (name: string) => op(keyOperations.createKey, { body: { name } }),
      revoke: (id: number) => op(keyOperations.revokeKey, { params: { id: String(id) } }),
    },
    settings: {
      providers: () => op(providerOperations.getProviderSettings, {}),
      saveProviders: (body: ProvidersUpdate) => op(providerOperations.updateProviderSettings, { body }),
      testProvider: (body: { id: string } | { provider: ProviderInput }) => op(providerOperations.testProvider, { body }),
      /** One real search on SearXNG or Brave; a field left out uses the saved value. */
      testSearch: (body: CallInput<typeof providerOperations.testSearch>['body']) => op(providerOperations.testSearch, { body }),
      localhost: () => op(appOperations.getLocalhostSettings, {}),
      saveLocalhost: (body: LocalhostSettingsUpdate) => op(appOperations.updateLocalhostSettings, { body }),
      saveGpu: (gpu: GpuInfo['gpu']) => op(appOperations.updateGpuSettings, { body: { gpu } }),
      preferences: () => op(appOperations.getAppPreferences, {}),
      savePreferences: (body: CallInput<typeof appOperations.updateAppPreferences>['body']) => op(appOperations.updateAppPreferences, { body }),
      ocr: () => op(ocrOperations.getOcrSettings, {}),
      /** 422 for a code Tesseract does not know; a known one without its model is kept and shown as missing. */
      saveOcr: (languages: string[]) => op(ocrOperations.updateOcrSettings, { body: { languages } }),
      embeddings: () => op(retrievalOperations.getEmbeddingSettings, {}),
      saveEmbeddings: (body: CallInput<typeof retrievalOperations.updateEmbeddingSettings>['body']) => op(retrievalOperations.updateEmbeddingSettings, { body }),
    },
    remote: {
      settings: () => op(remoteOperations.getRemoteSettings, {}),
      /** `api_key` omitted keeps the stored key, `null` removes it; the platform syncs the agents when it can. */
      save: (body: { base_url?: string | null; api_key?: string | null }) => op(remoteOperations.updateRemoteSettings, { body }),
      test: () => op(remoteOperations.testRemote, {}),
      /** 502 with the reason when the remote cannot be reached; the cached agents stay. */
      sync: () => op(remoteOperations.syncRemote, {}),
      /** Copies a remote agent into a new local one. */
      importAgent: (id: number) => op(remoteOperations.importRemoteAgent, { params: { id: String(id) } }),
    },
    models: {
      list: (query: CallInput<typeof modelOperations.listModels>['query'] = {}) => op(modelOperations.listModels, { query }),
      sources: () => op(modelOperations.listModelSources, {}),
      default: () => op(modelOperations.getDefaultModel, {}),
      catalog: () => op(modelOperations.listModelCatalog, {}),
      localServers: () => op(modelOperations.listLocalServers, {}),
      setup: (body: ModelSetupBody) => op(modelOperations.setupModels, { body }),
      downloads: () => op(modelOperations.listModelDownloads, {}),
      download: (body: { url: string; sha256?: string }) => op(modelOperations.createModelDownload, { body }),
      pause: (id: number) => op(modelOperations.pauseModelDownload, { params: { id: String(id) } }),
      resume: (id: number) => op(modelOperations.resumeModelDownload, { params: { id: String(id) } }),
      removeDownload: (id: number) => op(modelOperations.deleteModelDownload, { params: { id: String(id) } }),
    },
    tools: {
      servers: () => op(mcpServerOperations.listMcpServers, {}),
      create: (body: McpServerCreate) => op(mcpServerOperations.createMcpServer, { body }),
      update: (id: number, body: McpServerUpdate) => op(mcpServerOperations.updateMcpServer, { params: { id: String(id) }, body }),
      remove: (id: number) => op(mcpServerOperations.deleteMcpServer, { params: { id: String(id) } }),
      import: (body: McpImport) => op(mcpServerOperations.importMcpServers, { body }),
      list: (id: number) => op(mcpServerOperations.listMcpServerTools, { params: { id: String(id) } }),
      /** Starts the server when needed and fetches its tools again. */
      refresh: (id: number) => op(mcpServerOperations.refreshMcpServerTools, { params: { id: String(id) } }),
      /** Answers a tool call waiting for approval; `always` lets that tool run unasked from now on. */
      approve: (executionId: number, step: number, always = false) =>
        op(stepApprovalOperations.approveStep, { params: { id: String(executionId), step: String(step) }, body: { always } }),
      deny: (executionId: number, step: number) => op(stepApprovalOperations.denyStep, { params: { id: String(executionId), step: String(step) }, body: {} }),
    },
    voice: {
      settings: () => op(voiceOperations.getVoiceSettings, {}),
      save: (body: VoiceSettingsUpdate) => op(voiceOperations.updateVoiceSettings, { body }),
      /** A recording to text through the platform's transcription door (the model set in Settings → Voice). */
      transcribe: (audio: Blob, filename: string, language: string | undefined, signal?: AbortSignal) => {
        const form = new FormData();
        form.append('model', 'default');
        if (language) form.append('language', language);
        form.append('file', audio, filename);
        return sendUpload(audioOperations.createTranscription, {}, form, { signal });
      },
    },
    app: () => op(appOperations.getApp, {}),
    usage: (days = 30) => op(appOperations.getUsage, { query: { days } }),
    workspaceUsage: (query: CallInput<typeof usageOperations.getWorkspaceUsage>['query'] = {}) => op(usageOperations.getWorkspaceUsage, { query }),
  };
}

export type Client = ReturnType<typeof createClient>;
