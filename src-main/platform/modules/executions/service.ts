/**
 * Executions: the public service behind POST /api/agents/{id}/execute and /api/agent-responses,
 * also called by the OpenAI-compatible/MCP layer and the remote platform.
 *
 *   const { execution, events } = await p.services.executions.start(principal, agentIdOrAgent, parseExecuteBody(raw), opts?)
 *     - takes the parsed body (contract ExecuteBody: the route parses it; callers inside the platform
 *       use parseExecuteBody), checks it against the agent (answers, messages required) and the
 *       database (file_ids, root_id, branches), and throws ValidationError (422) / NotFoundError
 *       (404 `Agent not found`) before anything runs;
 *     - stores the execution (`starting`, base credits) and runs it in the background: a client
 *       that goes away loses nothing;
 *     - `execution` is the GET shape (with `input`); `events` is an AsyncIterable of stream events
 *       (the execution without `input`): `running` events whose `output` is the text since the
 *       previous event, then one final `completed` (empty output, numeric credits) | `failed` |
 *       `canceled` event with `error`. Iterating is optional; stopping early does not stop the run.
 *     - opts.provider: a ModelProvider to use instead of routing the model name;
 *       opts.overrides: { maxTokens, stop, temperature } for this call.
 *   get(userId, id)                → Execution (404 `Agent response not found`)
 *   waitFor(userId, id, timeoutMs) → Execution once terminal, or the current state at the timeout
 *   cancel(userId, id)             → Execution (`canceled`); 409 when it had already finished
 *   follow(userId, id, lastEventId?) → its stream events, each with its `id` (ext GET /api/agent-responses/{id}/stream):
 *                                    the output so far (or after `lastEventId`), live events, the final event
 *   listSessions(userId, query)    → Page<Session>: ext GET /api/sessions, newest activity first
 *   session(userId, id)            → SessionDetail: the session and its executions in order (404 `Session not found`)
 *   deleteSession(userId, id)      → { id, deleted: true }; 409 while one of its executions runs
 *   updateSession(userId, id, body) → Session: title, pinned, archived, the session's own instructions and options
 *                                    (sent with its next runs: instructions after the agent's, options over its answers)
 *   exportSession(userId, id, fmt) → the session as a Markdown or JSON file (sessions-export.ts)
 *   compare(principal, agent, body, models) → one execution per model answering the same turn, sibling branches
 *   p.services.providers.register(provider, { routes: ['remote:*'] }) makes a provider routable.
 *
 * When an execution ends `succeeded` or `failed`, the platform event
 *   events.emit('execution.finished', { type: 'execution.succeeded' | 'execution.failed', userId, agentId, execution })
 * fires with the GET shape (webhook deliveries listen to it), synchronously inside the transaction
 * that writes the terminal record: a listener's writes commit with it (better-sqlite3 nests them as
 * savepoints) and a crash loses neither. Listeners must be synchronous about their writes.
 *
 * Credits: the base shows at `starting`; an execution that ends before the model was called
 * (model_unavailable, unsupported, tool_unavailable, canceled early…) ends with 0.
 */
import type { ServiceContext, Principal } from '../../kernel/context.js';
import type { ExecutionFinished } from '../../kernel/events.js';
import { parseId } from '../../kernel/context.js';
import { ConflictError, NotFoundError, PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Agent } from '../../contract/agents.js';
import { isFinished, streamStatus, WAIT_MS, type ExecuteRequest, type Execution, type ExecutionContext, type ExecutionEvent, type ExecutionStatus } from '../../contract/executions.js';
import type { AgentsService } from '../agents/service.js';
import type { MemoriesService } from '../memories/service.js';
import type { ProvidersService } from '../providers/service.js';
import { executionCredits } from '../../kernel/credits.js';
import { ExecutionsStore, toExecution, type ExecutionRow } from './store.js';
import { Sessions, earlierTurns } from './sessions.js';
import type { Session, SessionDetail, SessionListQuery, SessionUpdate } from '../../contract/sessions.js';
import { attachment, sessionJson, sessionMarkdown } from './sessions-export.js';
import { asModelsError, withModel } from './sessions-compare.js';
import type { Page } from '../../kernel/context.js';
import type { ExecutionListQuery } from '../../contract/executions.js';
import { ExecutionList } from './list-store.js';
import { LiveExecution } from './live.js';
import { continueTranscript, imagePrompt, normalizeRequest, promptFromAnswers } from './validate.js';
import { runExecution, type Overrides } from '../../engine/runner.js';
import type { ToolboxSource } from '../../engine/tool-loop.js';
import type { ModelProvider } from '../../engine/providers/types.js';
import { ProviderError, isAbort } from '../../engine/providers/types.js';
import type { ContextSources } from '../../engine/context.js';
import { markCited } from '../../engine/passages.js';
import type { ExecutionRetrieval } from '../retrieval/port.js';
import { countTokensSync, tokenCounter } from '../../engine/tokens.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import { SetupTurns } from './setup-turns.js';
import { isObject, readStoredJson } from '../../kernel/stored-json.js';
import { say } from '../../contract/messages.js';
import { mark } from '../../kernel/first-token-marks.js';

export type { ExecutionEvent, Execution };

/** The part of the files service executions use (attachments, an agent's linked files, generated images). */
export interface ExecutionFiles {
  /** a file the user can see; throws NotFoundError for any other */
  row(userId: number, fileId: number): unknown;
  linkedFileIds(agentId: number): number[];
  createFromBuffer(workspaceId: number, filename: string, bytes: Buffer, opts?: { userId?: number }): { id: number; filename: string };
}

export interface StartOptions {
  /**
   * The steering questions (model, temperature, tools) may go unanswered: for callers whose protocol
   * carries its own settings (the OpenAI-compatible API, MCP). The model then comes from
   * `overrides.model` or the default model; no tool runs.
   */
  steeringOptional?: boolean;
  provider?: ModelProvider;
  overrides?: Overrides;
  /**
   * The creator's own writes (a scheduled run records the id): called with the new execution's id
   * inside the transaction that inserts it, so both commit together or not at all.
   */
  onCreated?: (executionId: number) => void;
}

export interface Started {
  execution: Execution;
  events: AsyncIterable<ExecutionEvent>;
}

/** How long `wait_execution` holds the request (the contract's value, the service's default wait). */
export { WAIT_MS };
/** How often streamed output is written to the database (batched so throughput holds). */
const FLUSH_MS = 100;
/** Run set-ups begun per loop iteration at most (each ~1 ms of context and a model call). */
const SETUPS_PER_ITERATION = 8;
/** How often a re-attached stream re-reads an execution that another process runs. */
const FOLLOW_POLL_MS = 500;
const INTERRUPTED = 'Agent Desk stopped before this execution finished (the app or server was closed). Run it again.';

/**
 * Credits of an execution interrupted by a shutdown or crash: 0 if the model was never called
 * (no provider recorded, never `running`), else the formula on the text it had produced.
 */
function interruptedCredits(r: ExecutionRow): number {
  if (r.provider === null && r.status !== 'running') return 0;
  return executionCredits(r.input_tokens, r.output_tokens || (r.output ? countTokensSync(r.output) : 0));
}

export class ExecutionsService {
  private readonly store: ExecutionsStore;
  private readonly sessions: Sessions;
  private readonly responses: ExecutionList;
  private readonly live = new Map<number, LiveExecution>();
  private readonly running = new Set<Promise<void>>();
  /** Running executions already in session search (their first progress write put them there). */
  private readonly searchable = new WeakSet<LiveExecution>();
  private closing = false;
  private readonly setupTurns = new SetupTurns(SETUPS_PER_ITERATION);

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: {
      agents: AgentsService;
      memories: MemoriesService;
      providers: ProvidersService;
      files: ExecutionFiles;
      remoteRunner?: typeof runExecution;
      /** the agents' own tools (MCP servers); `approvals.timeoutMs`: how long a call waits for a person */
      tools?: ToolboxSource & { readonly approvals?: { readonly timeoutMs: number } };
      /** memories and passages (hybrid), whole small files, a conversation's attachments */
      retrieval: ExecutionRetrieval;
    },
  ) {
    this.store = new ExecutionsStore(ctx.db);
    this.sessions = new Sessions(ctx.db);
    this.responses = new ExecutionList(ctx.db);
  }

  private sources(): ContextSources {
    const { retrieval, files, memories } = this.deps;
    return {
      // Nothing to find: no search, no query embedding (most runs of most users).
      memories: (userId, text, limit, collections) => (memories.anyToFind(userId, collections ?? null) ? retrieval.memories(userId, text, limit, collections) : []),
      passages: retrieval.passages,
      wholeFile: retrieval.wholeFile,
      linkedFileIds: (agentId) => files.linkedFileIds(agentId),
    };
  }

  /** Whether the user can see the file. */
  private canSee(userId: number, fileId: number): boolean {
    try {
      this.deps.files.row(userId, fileId);
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      throw err;
    }
  }

  /**
   * Executions left `starting`/`running` by a process that died are failed with a clear reason
   * (run once at start-up, after every listener is attached).
   */
  recover(only?: Set<number>): number {
    const rows = this.store.unfinished().filter((r) => !this.live.has(r.id) && (!only || only.has(r.id)));
    // One transaction for all: each terminal record commits together with its webhook fan-out.
    this.store.finishAll(
      rows.map((r) => ({
        f: {
          id: r.id, status: 'failed', output: r.output, errorMessage: INTERRUPTED, errorCode: 'interrupted', credits: interruptedCredits(r),
          inputTokens: r.input_tokens, outputTokens: r.output_tokens, outputFileId: r.output_file_id, provider: null, now: nowMicros(),
        },
        after: () => this.emitFinished(r.id, r.user_id, r.agent_id, 'failed'),
      })),
    );
    if (rows.length) this.ctx.log.warn({ count: rows.length }, 'executions interrupted by the previous shutdown were marked failed');
    return rows.length;
  }

  /**
   * Shutdown: no new executions; running ones get `grace` to finish (ms, or until a promise
   * settles: tests end it on a condition), the rest are failed and stored. `othersToo: false` (a
   * second process on the data dir) touches only this process's own executions, never the ones
   * another process is running.
   */
  async shutdown(grace: number | Promise<unknown> = 10_000, opts: { othersToo?: boolean } = {}): Promise<void> {
    this.closing = true;
    const mine = new Set(this.live.keys());
    const all = () => Promise.allSettled([...this.running]);
    const timer = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
    if (this.running.size) await Promise.race([all(), typeof grace === 'number' ? timer(grace) : grace]);
    for (const l of this.live.values()) {
      l.abortReason = 'shutdown';
      l.abort.abort();
    }
    if (this.running.size) await Promise.race([all(), timer(2000)]);
    // Runs that ignored the abort too: record them failed now, and end their streams.
    for (const l of [...this.live.values()]) {
      this.live.delete(l.id);
      l.error = { message: INTERRUPTED, code: 'interrupted' };
      l.status = 'failed';
      l.notify();
    }
    this.recover(opts.othersToo === false ? mine : undefined);
    this.store.close();
  }

  private agentOf(userId: number, agent: number | string | Agent): Agent {
    return typeof agent === 'object' ? agent : this.deps.agents.get(userId, agent);
  }

  /**
   * `body` is parsed already (the route's schema, or parseExecuteBody for callers inside the
   * platform); here only the rules that need the agent or the database.
   */
  async start(principal: Principal, agentRef: number | string | Agent, body: ExecuteRequest, opts: StartOptions = {}): Promise<Started> {
    if (this.closing) throw new PlatformError(503, 'Agent Desk is shutting down; try again when it is back.', 'shutting_down');
    mark('service start');
    const userId = principal.userId;
    const agent = this.agentOf(userId, agentRef);
    // Models the providers list (and the default model) are known before the answers are checked.
    await this.deps.providers.prepareFor(agent, body.answers.model, opts.overrides?.model);
    mark('providers prepared');
    const req = normalizeRequest(agent, body, { steeringOptional: opts.steeringOptional, acceptModel: (m) => this.deps.providers.serves(m) });
    const model = opts.overrides?.model ?? req.model;

    const errors: Record<string, string[]> = {};
    body.fileIds.forEach((id, i) => {
      if (!this.canSee(userId, id)) errors[`file_ids.${i}`] = [say.invalid(`file_ids.${i}`)];
    });
    body.memoryCollections?.forEach((id, i) => {
      if (!this.deps.memories.ownsCollection(userId, id)) errors[`memory_collections.${i}`] = [say.invalid(`memory_collections.${i}`)];
    });
    let rootId: number | null = null;
    if (body.rootId !== null) {
      const root = this.store.row(body.rootId, userId);
      if (!root) errors.root_id = [say.invalid('root id')];
      else rootId = root.root_id;
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    // ext parent_id / alternative_of: where in the session's tree this turn goes (branches).
    const branch = this.sessions.branch(userId, { parentId: body.parentId, alternativeOf: body.alternativeOf }, rootId);
    rootId = branch.rootId;
    // ext: the session's own instructions (after the agent's) and options (over its answers).
    const own = this.sessions.runSettings(userId, rootId);
    const developer = [own.instructions?.trim(), body.developer?.trim()].filter(Boolean).join('\n\n') || null;
    const ownOverrides: Overrides = {
      ...(own.options.max_tokens !== undefined ? { maxTokens: own.options.max_tokens } : {}),
      ...(own.options.top_p !== undefined ? { topP: own.options.top_p } : {}),
    };

    const transcript = branch.parentId !== null ? this.sessions.transcript(userId, branch.parentId) : [];
    const isChat = agent.type === 'chat';
    const textPrompt = isChat ? '' : agent.type === 'image' ? imagePrompt(agent, req.answers) : promptFromAnswers(agent, req.answers);
    const { conversation, added } = isChat || body.turns.length ? continueTranscript(transcript, body.turns) : { conversation: [...transcript], added: [] as typeof body.turns };
    if (!isChat) {
      // A text agent's task is its answers: they form the user turn, together with any message
      // sent beside them (the answers must reach the model even when messages are given).
      const lastAdded = added[added.length - 1];
      if (lastAdded?.role === 'user' && textPrompt && !lastAdded.content.includes(textPrompt)) {
        const merged = { role: 'user' as const, content: `${textPrompt}\n\n${lastAdded.content}` };
        added[added.length - 1] = merged;
        conversation[conversation.length - 1] = merged;
      } else if (!lastAdded || lastAdded.role !== 'user') {
        const userTurn = { role: 'user' as const, content: textPrompt || 'Go ahead.' };
        conversation.push(userTurn);
        added.push(userTurn);
      }
    }
    const lastUser = [...added].reverse().find((t) => t.role === 'user')?.content ?? '';
    // `input`: what the user asked: a chat's last user message, other agents' answers as JSON.
    const input = isChat ? lastUser : JSON.stringify(req.answers);
    const base = executionCredits(0, 0);
    const now = nowMicros();
    mark('insert');
    const created = this.store.insert(
      {
        agentId: agent.id, userId, rootId, parentId: branch.parentId, input, credits: base, model, answers: JSON.stringify(req.answers),
        turns: JSON.stringify(added), fileIds: JSON.stringify(body.fileIds), now,
      },
      opts.onCreated,
    );
    mark('inserted');
    const id = created.id;
    const live = new LiveExecution(id, agent.id, userId, created.rootId, now, base);
    this.live.set(id, live);
    void tokenCounter();

    const run = this.run(live, {
      executionId: id,
      agent,
      userId,
      model,
      developer,
      conversation,
      query: isChat ? lastUser : textPrompt,
      // A conversation's attachments stay available to its later turns.
      fileIds: rootId !== null ? [...new Set([...body.fileIds, ...this.deps.retrieval.conversationFileIds(rootId, userId)])] : body.fileIds,
      temperature: own.options.temperature ?? req.temperature,
      tool: req.tool,
      imageSize: typeof req.answers.size === 'string' ? req.answers.size : undefined,
      provider: opts.provider,
      overrides: { ...ownOverrides, ...opts.overrides },
      signal: live.abort.signal,
      answers: req.answers,
      memoryCollections: body.memoryCollections,
    }, agent.source === 'remote');
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    const execution = toExecution(this.store.row(id, userId)!);
    mark('service started');
    return { execution, events: { [Symbol.asyncIterator]: () => live.events() } };
  }

  /** Its streamed state is written within FLUSH_MS, in one commit with every other running execution's. */
  private scheduleFlush(live: LiveExecution): void {
    this.store.progressSoon(
      live.id,
      () => {
        if (live.terminal) return null;
        const index = !this.searchable.has(live);
        this.searchable.add(live);
        return { id: live.id, status: live.status, output: live.output, provider: live.provider, now: live.updatedAt, steps: live.steps, index };
      },
      FLUSH_MS,
    );
  }

  private async run(live: LiveExecution, plan: Parameters<typeof runExecution>[0], remote = false): Promise<void> {
    // A remote agent runs on its own platform; everything around the run is the same.
    const runner = remote && this.deps.remoteRunner ? this.deps.remoteRunner : runExecution;
    let status: ExecutionStatus = 'succeeded';
    let result = { inputTokens: 0, outputTokens: 0, outputFileId: null as number | null };
    // Let start() answer first: the stream's first event is then sent before any model work, and
    // the request's own work and the run's set-up each get a turn of the loop, not one between them;
    // a burst of set-ups is spread over iterations (setup-turns.ts).
    await this.setupTurns.next();
    mark('run');
    try {
      // The agent's MCP tools (servers start on first use); a remote agent runs with its platform's own.
      if (!remote && this.deps.tools && !plan.toolbox) plan.toolbox = (await this.deps.tools.toolboxFor(plan.userId, plan.agent.id, live.id, plan.signal)) ?? undefined;
      mark('toolbox');
      result = await runner(
        plan,
        {
          resolve: (m) => this.deps.providers.resolve(m),
          defaultModel: () => this.deps.providers.defaultModel(),
          sources: this.sources(),
          search: () => this.deps.providers.search(),
          saveImage: (ws, userId, filename, bytes) => this.deps.files.createFromBuffer(ws, filename, bytes, { userId }),
        },
        {
          running: (provider) => {
            live.status = 'running';
            live.provider = provider;
            live.notify();
            this.scheduleFlush(live);
          },
          text: (delta) => {
            mark('text');
            if (live.firstTokenAt === null && delta) live.firstTokenAt = nowMicros();
            live.output += delta;
            live.notify();
            this.scheduleFlush(live);
          },
          context: (used: ExecutionContext) => {
            live.context = used;
          },
          step: (st) => {
            if (!live.steps.includes(st)) live.steps.push(st);
            // ext: a client can count down to the automatic deny (the step itself does not know it).
            const waitMs = this.deps.tools?.approvals?.timeoutMs;
            if (st.status !== 'awaiting_approval') delete st.approval_expires_at;
            else if (!st.approval_expires_at && waitMs) st.approval_expires_at = isoMicros(nowMicros() + waitMs * 1000);
            live.stepsVersion++;
            live.status = live.steps.some((s) => s.status === 'awaiting_approval') ? 'awaiting_approval' : 'running';
            live.notify();
            this.scheduleFlush(live);
          },
        },
      );
    } catch (err) {
      if (live.abort.signal.aborted || isAbort(err)) {
        status = live.abortReason === 'shutdown' ? 'failed' : 'canceled';
        live.error = live.abortReason === 'shutdown' ? { message: INTERRUPTED, code: 'interrupted' } : { message: 'The execution was canceled.', code: 'canceled' };
      } else if (err instanceof ProviderError) {
        status = 'failed';
        live.error = { message: err.message, code: err.code };
      } else {
        status = 'failed';
        this.ctx.log.error({ err, execution: live.id }, 'execution failed unexpectedly');
        live.error = { message: `The execution failed: ${(err as Error)?.message ?? String(err)}`, code: 'internal_error' };
      }
    }
    this.store.forgetProgress(live.id);
    if (live.context) live.context = markCited(live.context, live.output);
    // A run that ended early still charges the text it produced (estimated: no usage was reported).
    if (status !== 'succeeded' && result.outputTokens === 0 && live.output) result.outputTokens = countTokensSync(live.output);
    // Nothing is charged for work never done: a run that ended before the model was called costs 0.
    live.credits = live.provider !== null ? executionCredits(result.inputTokens, result.outputTokens) : 0;
    if (this.store.open) {
      const terminal = status === 'succeeded' || status === 'failed' ? status : null;
      try {
        await this.store.finishSoon(
          {
            id: live.id, status, output: live.output, errorMessage: live.error?.message ?? null, errorCode: live.error?.code ?? null, credits: live.credits,
            inputTokens: result.inputTokens, outputTokens: result.outputTokens, outputFileId: result.outputFileId, provider: live.provider, context: live.context, steps: live.steps, firstTokenAt: live.firstTokenAt, now: nowMicros(),
          },
          terminal ? () => this.emitFinished(live.id, live.userId, live.agentId, terminal) : undefined,
        );
      } catch (err) {
        this.ctx.log.error({ err, execution: live.id }, 'could not store the end of an execution');
      }
    }
    live.status = status;
    this.live.delete(live.id);
    live.notify();
  }

  /**
   * Runs inside the transaction that writes the terminal record, so the fan-out commits with it.
   * Each listener gets its own savepoint: one that throws is rolled back alone and logged; it can
   * never undo the execution's terminal record nor another listener's writes.
   */
  private emitFinished(id: number, userId: number, agentId: number, status: 'succeeded' | 'failed'): void {
    const row = this.store.row(id, userId);
    if (!row) return;
    const event: ExecutionFinished = { type: status === 'succeeded' ? 'execution.succeeded' : 'execution.failed', userId, agentId, execution: toExecution(row) };
    // rawListeners keeps `once` semantics (its wrapper removes itself when called).
    for (const listener of this.ctx.events.rawListeners('execution.finished')) {
      try {
        this.ctx.db.transaction(() => listener(event))();
      } catch (err) {
        this.ctx.log.error({ err, execution: id }, 'an execution.finished listener failed');
      }
    }
  }

  private rowOf(userId: number, rawId: string | number): ExecutionRow {
    const id = parseId(rawId);
    const row = id ? this.store.row(id, userId) : undefined;
    if (!row) throw new NotFoundError('Agent response not found');
    return row;
  }

  /** The stored execution; while it runs, with the output streamed so far. */
  get(userId: number, rawId: string | number): Execution {
    return this.withLive(this.rowOf(userId, rawId));
  }

  /** The stored execution with a running one's live state over it (status, output so far). */
  private withLive(row: ExecutionRow): Execution {
    const live = this.live.get(row.id);
    const e = toExecution(row);
    if (live && !live.terminal) {
      e.status = live.status;
      e.output = live.output;
      if (live.context) e.context = live.context;
      if (live.steps.length) e.steps = live.steps.map((s) => ({ ...s }));
    }
    return e;
  }

  /** ext GET /api/agent-responses: the caller's executions, newest first (a running one with its live state). */
  list(userId: number, q: ExecutionListQuery): Page<Execution> {
    const { rows, total } = this.responses.page(userId, q);
    return { items: rows.map((r) => this.withLive(r)), total, page: q.page, perPage: q.per_page };
  }

  listSessions(userId: number, q: SessionListQuery): Page<Session> {
    return this.sessions.page(userId, q);
  }

  private sessionOf(userId: number, rawId: string | number): Session {
    const id = parseId(rawId);
    const s = id ? this.sessions.one(userId, id) : null;
    if (!s) throw new NotFoundError('Session not found');
    return s;
  }

  session(userId: number, rawId: string | number): SessionDetail {
    const s = this.sessionOf(userId, rawId);
    const rows = this.sessions.executions(userId, s.id);
    return {
      ...s,
      earlier: earlierTurns(rows[0]?.turns ?? '[]', rows[0]?.id),
      executions: rows.map((r) => ({ ...this.withLive(r), parent_id: r.parent_id, answers: readStoredJson<Record<string, unknown> | undefined>(r.answers, { column: 'executions.answers', id: r.id }, undefined, isObject) })),
    };
  }

  /** ext PATCH /api/sessions/{id}: title, pin, archive, the session's own instructions and options. */
  updateSession(userId: number, rawId: string | number, body: SessionUpdate): Session {
    const s = this.sessionOf(userId, rawId);
    this.sessions.update(userId, s.id, body, nowMicros());
    return this.sessionOf(userId, s.id);
  }

  /** ext GET /api/sessions/{id}/export: the file's name (Content-Disposition), type and text. */
  exportSession(userId: number, rawId: string | number, format: 'md' | 'json'): { disposition: string; type: string; text: string } {
    const s = this.sessionOf(userId, rawId);
    if (format === 'json') return { disposition: attachment(s.title, 'json'), type: 'application/json; charset=utf-8', text: sessionJson(this.session(userId, s.id)) };
    let agentTitle: string | null = null;
    try {
      agentTitle = this.deps.agents.get(userId, s.agent_id).title;
    } catch {}
    return { disposition: attachment(s.title, 'md'), type: 'text/markdown; charset=utf-8', text: sessionMarkdown(s, this.sessions.executions(userId, s.id), agentTitle) };
  }

  /**
   * ext POST /api/agents/{id}/compare: the same turn answered by each model, siblings started at
   * once. Every model is checked before any starts, so a refused one starts none.
   */
  async compare(principal: Principal, agentRef: number | string, body: ExecuteRequest, models: string[]): Promise<Execution[]> {
    const agent = this.agentOf(principal.userId, agentRef);
    for (const [i, model] of models.entries()) {
      await this.deps.providers.prepareFor(agent, model);
      try {
        normalizeRequest(agent, withModel(body, model), { acceptModel: (m) => this.deps.providers.serves(m) });
      } catch (err) {
        throw asModelsError(err, i);
      }
    }
    const first = (await this.start(principal, agent, withModel(body, models[0]))).execution;
    const out = [first];
    for (const model of models.slice(1)) {
      out.push((await this.start(principal, agent, { ...withModel(body, model), rootId: first.root_id, parentId: null, alternativeOf: first.id })).execution);
    }
    return out;
  }

  /** Removes a session's executions. Refused while one runs: its end would be written to nothing. */
  deleteSession(userId: number, rawId: string | number): { id: number; deleted: true } {
    const s = this.sessionOf(userId, rawId);
    this.ctx.db.transaction(() => {
      const rows = this.sessions.executions(userId, s.id);
      if (rows.some((r) => this.live.has(r.id))) throw new ConflictError('This session has an execution running; cancel it or let it finish, then delete the session.');
      this.sessions.delete(userId, s.id);
    }).immediate();
    return { id: s.id, deleted: true };
  }

  /** Token counts so far (final once terminal): the OpenAI-compatible `usage`. */
  tokens(userId: number, rawId: string | number): { inputTokens: number; outputTokens: number } {
    const row = this.rowOf(userId, rawId);
    return { inputTokens: row.input_tokens, outputTokens: row.output_tokens };
  }

  /**
   * The execution once it ends, or as it is after `timeoutMs`, or when `signal` aborts (the client
   * left: its timer goes with it; the execution itself runs on).
   */
  async waitFor(userId: number, rawId: string | number, timeoutMs = WAIT_MS, signal?: AbortSignal): Promise<Execution> {
    const row = this.rowOf(userId, rawId);
    const live = this.live.get(row.id);
    if (live && !signal?.aborted) {
      let stop = () => {};
      const over = new Promise<void>((r) => {
        const t = setTimeout(r, timeoutMs);
        const onAbort = () => r();
        signal?.addEventListener('abort', onAbort, { once: true });
        stop = () => {
          clearTimeout(t);
          signal?.removeEventListener('abort', onAbort);
          r();
        };
      });
      await Promise.race([live.done, over]);
      stop();
    }
    return this.get(userId, row.id);
  }

  /**
   * ext GET /api/agent-responses/{id}/stream: the execution's events as the execute stream sends
   * them, each with its `id` (the output length a reader holds once it has it). Without
   * `lastEventId` the first event holds the whole output so far; with it, the text after it. A
   * bad `lastEventId` is a 422 here, before any event.
   */
  follow(userId: number, rawId: string | number, lastEventId?: string): AsyncIterable<{ id: number; data: ExecutionEvent }> {
    const row = this.rowOf(userId, rawId);
    const live = this.live.get(row.id);
    const have = (live ? live.output : row.output).length;
    let from = 0;
    if (lastEventId !== undefined) {
      const t = lastEventId.trim();
      from = /^\d{1,15}$/.test(t) ? Number(t) : -1;
      if (from < 0 || from > have) {
        throw new ValidationError({ 'Last-Event-ID': [`The Last-Event-ID header must be the id of an event of this stream (a whole number from 0 to ${have}).`] });
      }
    }
    const announce = lastEventId === undefined;
    if (live) return { [Symbol.asyncIterator]: () => live.frames(from, announce) };
    return { [Symbol.asyncIterator]: () => this.storedFrames(userId, row.id, from, announce) };
  }

  /** Events of an execution this process does not run: finished (its final event at once), or run by another process (re-read until it ends). */
  private async *storedFrames(userId: number, id: number, from: number, announce: boolean): AsyncGenerator<{ id: number; data: ExecutionEvent }> {
    let sent = from;
    let first = announce;
    for (;;) {
      const row = this.store.row(id, userId);
      if (!row) return;
      const e = toExecution(row);
      const event: ExecutionEvent = {
        id: e.id, status: 'running', output: '', error: null, credits: null, root_id: e.root_id, created_at: e.created_at, updated_at: e.updated_at, template_id: e.template_id,
        ...(e.steps ? { steps: e.steps } : {}),
      };
      if (row.output.length > sent || first) {
        yield { id: row.output.length, data: { ...event, output: row.output.slice(sent) } };
        sent = row.output.length;
        first = false;
      }
      if (isFinished(row.status)) {
        yield { id: sent, data: { ...event, status: streamStatus(row.status), error: e.error, credits: e.credits } };
        return;
      }
      await new Promise((r) => setTimeout(r, FOLLOW_POLL_MS));
    }
  }

  async cancel(userId: number, rawId: string | number): Promise<Execution> {
    const row = this.rowOf(userId, rawId);
    const live = this.live.get(row.id);
    if (!live) {
      if (row.status === 'canceled') return toExecution(row);
      throw new ConflictError(`The execution has already ${row.status === 'succeeded' ? 'succeeded' : 'ended'}; there is nothing to cancel.`);
    }
    live.abortReason = 'cancel';
    live.abort.abort();
    await live.done;
    return this.get(userId, row.id);
  }
}

