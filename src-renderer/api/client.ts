import type { z } from 'zod';
import { Agent, AgentDeleted, AgentPage, ResourcePage, type AgentCreate, type AgentUpdate } from '../../src-main/platform/contract/agents';
import { memoryOperations as M } from '../../src-main/platform/contract/memories';
import { pathOf, queryOf, type Answer, type CallInput, type Operation } from '../../src-main/platform/contract/operation';
import { WebhookCreated, WebhookDeleted, WebhookPage, WebhookUpdated } from '../../src-main/platform/contract/webhooks';
import { ApiKey, ApiKeyCreated } from '../../src-main/platform/contract/keys';
import { z as zod } from 'zod';
import { Execution, ExecuteResponse, type ExecutionEvent } from '../../src-main/platform/contract/executions';
import { Session, SessionDeleted, SessionDetail, SessionPage } from '../../src-main/platform/contract/sessions';
import { AgentFileRemoved, AgentFileSet, AgentFileSetLinked, FileDeleted, FileDetail, FileList, FileObject } from '../../src-main/platform/contract/files';
import { WebhookDelivery, WebhookDeliveryDetail, WebhookDeliveryPage } from '../../src-main/platform/contract/webhook-deliveries';
import { Schedule, ScheduleDeleted, SchedulePage, ScheduleRunPage, type ScheduleCreate, type ScheduleUpdate } from '../../src-main/platform/contract/schedules';
import type { ProvidersUpdate, ProviderInput } from '../../src-main/platform/contract/settings';
import { AppInfo, GpuInfo, LocalhostSettings, Usage, type LocalhostSettingsUpdate } from '../../src-main/platform/contract/app-settings';
import { OcrSettings } from '../../src-main/platform/contract/ocr';
import { WorkspaceUsage } from '../../src-main/platform/contract/usage';
import { FilePassagesPage } from '../../src-main/platform/contract/retrieval';
import type { ModelSetupBody } from '../../src-main/platform/contract/models';
import type { McpImport, McpServerCreate, McpServerUpdate } from '../../src-main/platform/contract/tools';
import { modelOperations } from '../../src-main/platform/contract/models';
import { providerOperations } from '../../src-main/platform/contract/settings';
import { mcpServerOperations } from '../../src-main/platform/contract/tools';
import { stepApprovalOperations } from '../../src-main/platform/contract/step-approvals';
import { remoteOperations } from '../../src-main/platform/contract/remote';
import { ApiError, errorFrom } from './errors';
import { readExecutionEvents } from './sse';
import type { RawResponse, Transport } from './transport';

type Query = Record<string, string | number | undefined | null>;

function qs(q: Query = {}): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export interface ExecuteBody {
  answers: Record<string, unknown>;
  messages?: { role: 'user' | 'assistant' | 'developer'; content: string }[];
  file_ids?: number[];
  /** ext: continue after this execution / answer again beside it (branches of a session) */
  parent_id?: number;
  alternative_of?: number;
}

/** The one typed client: every call parses the answer with the contract, whatever the transport. */
export function createClient(t: Transport) {
  const read = <S extends z.ZodType>(schema: S, res: RawResponse): z.infer<S> => {
    if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
    let json: unknown;
    try {
      json = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      throw new ApiError(res.status, 'The platform answered with something that is not JSON.');
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new ApiError(res.status, `Unexpected answer from the platform: ${parsed.error.issues[0]?.message ?? 'invalid shape'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}.`);
    return parsed.data;
  };
  const call = async <S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown): Promise<z.infer<S>> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return read(schema, await t.request({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  };
  const get = <S extends z.ZodType>(s: S, path: string) => call(s, 'GET', path);
  /** Calls a declared operation: path, query and body as its declaration says; the answer parsed by its schema. */
  const op = <O extends Operation>(o: O, input: CallInput<O>): Promise<Answer<O>> =>
    call(o.response, o.method.toUpperCase(), `${o.base ?? '/api'}${pathOf(o, input.params)}${queryOf(input.query)}`, input.body) as Promise<Answer<O>>;

  return {
    transport: t.kind,
    agents: {
      list: (q: Query = {}) => get(AgentPage, `/api/agents${qs(q)}`),
      get: (id: number) => get(Agent, `/api/agents/${id}`),
      create: (body: AgentCreate) => call(Agent, 'POST', '/api/agents', body),
      update: (id: number, body: AgentUpdate) => call(Agent, 'PATCH', `/api/agents/${id}`, body),
      delete: (id: number) => call(AgentDeleted, 'DELETE', `/api/agents/${id}`),
      files: (id: number) => get(AgentFileSet, `/api/agents/${id}/files`),
      linkFiles: (id: number, fileIds: number[]) => call(AgentFileSetLinked, 'POST', `/api/agents/${id}/files`, { file_ids: fileIds }),
      unlinkFile: (id: number, fileId: number) => call(AgentFileRemoved, 'DELETE', `/api/agents/${id}/files/${fileId}`),
    },
    resources: {
      list: (q: Query = {}) => get(ResourcePage, `/api/resources${qs(q)}`),
    },
    executions: {
      /**
       * Streams an execution: `onEvent` sees each event (a `running` event's output is the new
       * text only). Resolves with the last event; a `failed` one is returned, not thrown.
       */
      stream: (agentId: number, body: ExecuteBody, onEvent: (e: ExecutionEvent) => void, signal?: AbortSignal): Promise<ExecutionEvent | null> =>
        readExecutionEvents(
          t,
          { method: 'POST', path: `/api/agents/${agentId}/execute`, headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ ...body, stream: true }) },
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
          { method: 'GET', path: `/api/agent-responses/${id}/stream`, headers: { accept: 'text/event-stream', ...(opts.lastEventId !== undefined ? { 'last-event-id': opts.lastEventId } : {}) } },
          onEvent,
          opts.signal,
        ),
      start: (agentId: number, body: ExecuteBody) => call(ExecuteResponse, 'POST', `/api/agents/${agentId}/execute`, body),
      get: (id: number) => get(Execution, `/api/agent-responses/${id}`),
      cancel: (id: number) => call(Execution, 'POST', `/api/agent-responses/${id}/cancel`),
    },
    sessions: {
      list: (q: Query = {}) => get(SessionPage, `/api/sessions${qs(q)}`),
      get: (id: number) => get(SessionDetail, `/api/sessions/${id}`),
      delete: (id: number) => call(SessionDeleted, 'DELETE', `/api/sessions/${id}`),
      rename: (id: number, title: string) => call(Session, 'PATCH', `/api/sessions/${id}`, { title }),
    },
    files: {
      /** One page; `status` and `q` are the server's ext filters (empty means any). */
      list: (q: Query = {}) => get(FileList, `/api/files${qs({ per_page: 100, ...q })}`),
      get: (id: number) => get(FileDetail, `/api/files/${id}`),
      async upload(file: File, opts: { process?: boolean; onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {}) {
        const form = new FormData();
        form.append('file', file, file.name);
        if (opts.process) form.append('process', 'true');
        return read(FileObject, await t.upload('/api/files', form, { onProgress: opts.onProgress, signal: opts.signal }));
      },
      process: (id: number) => call(FileObject, 'POST', `/api/files/${id}/process`),
      delete: (id: number) => call(FileDeleted, 'DELETE', `/api/files/${id}`),
      /** ext: the extracted text, passage by passage (the file viewer) */
      passages: (id: number, q: Query = {}) => get(FilePassagesPage, `/api/files/${id}/passages${qs({ limit: 500, ...q })}`),
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
      listForAgent: (agentId: number, q: Query = {}) => get(WebhookPage, `/api/agents/${agentId}/webhooks${qs({ per_page: 100, ...q })}`),
      listAll: (q: Query = {}) => get(WebhookPage, `/api/webhooks${qs({ per_page: 100, ...q })}`),
      create: (agentId: number, url: string, status: 'active' | 'inactive' = 'active') => call(WebhookCreated, 'POST', `/api/agents/${agentId}/webhooks`, { url, method: 'POST', status }),
      update: (id: number, body: { status?: 'active' | 'inactive'; url?: string; rotate_secret?: boolean }) => call(WebhookUpdated, 'PATCH', `/api/webhooks/${id}`, body),
      delete: (id: number) => call(WebhookDeleted, 'DELETE', `/api/webhooks/${id}`),
      deliveries: (id: number) => get(WebhookDeliveryPage, `/api/webhooks/${id}/deliveries?per_page=50`),
      test: (id: number) => call(WebhookDeliveryDetail, 'POST', `/api/webhooks/${id}/test`),
      delivery: (id: number, deliveryId: number) => get(WebhookDeliveryDetail, `/api/webhooks/${id}/deliveries/${deliveryId}`),
      redeliver: (id: number, deliveryId: number) => call(WebhookDelivery, 'POST', `/api/webhooks/${id}/deliveries/${deliveryId}/redeliver`),
    },
    schedules: {
      list: (q: Query = {}) => get(SchedulePage, `/api/schedules${qs({ per_page: 100, ...q })}`),
      create: (body: z.input<typeof ScheduleCreate>) => call(Schedule, 'POST', '/api/schedules', body),
      update: (id: number, body: ScheduleUpdate) => call(Schedule, 'PATCH', `/api/schedules/${id}`, body),
      delete: (id: number) => call(ScheduleDeleted, 'DELETE', `/api/schedules/${id}`),
      runs: (id: number, q: Query = {}) => get(ScheduleRunPage, `/api/schedules/${id}/runs${qs({ per_page: 20, ...q })}`),
    },
    keys: {
      list: () => get(zod.object({ data: zod.array(ApiKey) }), '/api/keys'),
      create: (name: string) => call(ApiKeyCreated, 'POST', '/api/keys', { name }),
      revoke: (id: number) => call(ApiKey, 'DELETE', `/api/keys/${id}`),
    },
    settings: {
      providers: () => op(providerOperations.getProviderSettings, {}),
      saveProviders: (body: ProvidersUpdate) => op(providerOperations.updateProviderSettings, { body }),
      testProvider: (body: { id: string } | { provider: ProviderInput }) => op(providerOperations.testProvider, { body }),
      localhost: () => get(LocalhostSettings, '/api/settings/localhost'),
      saveLocalhost: (body: LocalhostSettingsUpdate) => call(LocalhostSettings, 'PUT', '/api/settings/localhost', body),
      saveGpu: (gpu: GpuInfo['gpu']) => call(GpuInfo, 'PUT', '/api/settings/gpu', { gpu }),
      ocr: () => get(OcrSettings, '/api/settings/ocr'),
      /** 422 for a code Tesseract does not know; a known one without its model is kept and shown as missing. */
      saveOcr: (languages: string[]) => call(OcrSettings, 'PUT', '/api/settings/ocr', { languages }),
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
    app: () => get(AppInfo, '/api/app'),
    usage: (days = 30) => get(Usage, `/api/usage${qs({ days })}`),
    workspaceUsage: (q: Query = {}) => get(WorkspaceUsage, `/api/workspaces/usage${qs(q)}`),
  };
}

export type Client = ReturnType<typeof createClient>;
