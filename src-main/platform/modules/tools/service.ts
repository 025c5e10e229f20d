/**
 * Tools from MCP servers (CONTRACT.md "Tools and schedules (ext)"): the user's servers, their
 * connections, the tools each agent may use, and approvals of tool calls.
 *
 *   list/get/create/update/delete/import(userId, ...)  the servers (secrets write-only in answers)
 *   tools(userId, id)                                  the server's tools as last fetched (never starts it)
 *   refresh(userId, id)                                starts the server when needed and fetches its tools
 *   toolboxFor(userId, agentId, executionId, signal)   the engine's Toolbox for one run
 *   decide(userId, executionId, step, decision)        answers a call waiting for approval
 *
 * Settings key `tools.limits` `{max_steps, call_timeout_ms, max_result_chars}` bounds each run.
 * A server starts, and its tool list is fetched, only on save, on an explicit refresh, or for a
 * run (never on a GET); `tools.listed` keeps the last list fetched. Stored env values and headers
 * go only to the command or URL they were entered for.
 */
import type { ServiceContext } from '../../kernel/context.js';
import { parseId } from '../../kernel/context.js';
import type { SettingsService } from '../../kernel/settings.js';
import type { SecretBox } from '../../kernel/secrets.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import { ConflictError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import type { McpImport, McpServer, McpServerCreate, McpServerUpdate, ToolServerRef } from '../../contract/tools.js';
import type { AgentsService } from '../agents/service.js';
import { functionNames, type AgentTool, type Approval, type Toolbox, type ToolboxSource } from '../../engine/tool-loop.js';
import { McpServersStore, type McpServerRow, type McpServerWrite } from './store.js';
import { McpConnection, type ListedTool, type ServerSpec } from './mcp-client.js';
import { Approvals, type Decision } from './approvals.js';
import { isObject, readStoredJson, readStoredList } from '../../kernel/stored-json.js';
import { keepSecretOnlyWhereEntered } from '../../kernel/kept-secret.js';
import { say } from '../../contract/messages.js';

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'tools.limits': ToolLimits;
    /** by server id: the tools it listed when last started or refreshed */
    'tools.listed': Record<string, { version: string; tools: ListedTool[]; fetched_at: number }>;
  }
}

/** What a server's connection is made of (a new "Always" tool does not restart it). */
const versionOf = (r: McpServerRow) => JSON.stringify([r.name, r.transport, r.command, r.args, r.env, r.cwd, r.url, r.headers]);

/** A shared promise, given up on (for this caller only) when its signal aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** Secrets shorter than this are left in stderr (masking "1" or "dev" would garble every line). */
const MASK_MIN = 4;

/** `text` with every known secret value replaced. */
export function maskSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const s of [...new Set(secrets)].filter((x) => x.length >= MASK_MIN).sort((a, b) => b.length - a.length)) out = out.split(s).join('••••••');
  return out;
}


export interface ToolLimits {
  max_steps?: number;
  call_timeout_ms?: number;
  max_result_chars?: number;
}

export class ToolsService implements ToolboxSource {
  private readonly store: McpServersStore;
  private readonly connections = new Map<number, { version: string; conn: McpConnection }>();
  /** Tool-list fetches under way, by server id (a GET waits for one rather than starting anything). */
  private readonly fetching = new Map<number, { version: string; list: Promise<ListedTool[]> }>();
  readonly approvals = new Approvals();
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: { settings: SettingsService; secrets: SecretBox; agents: AgentsService; lifecycle: Lifecycle },
  ) {
    this.store = new McpServersStore(ctx.db);
    deps.agents.toolServersCheck = (userId, refs) => this.checkRefs(userId, refs);
    deps.lifecycle.onShutdown(() => this.close());
  }

  private openMap(sealed: string | null): Record<string, string> {
    if (!sealed) return {};
    let text: string;
    try {
      text = this.deps.secrets.open(sealed);
    } catch {
      return {}; // sealed under another key: the person enters the values again
    }
    return readStoredJson<Record<string, string>>(text, { column: 'mcp_servers.env/headers' }, {}, (v) => isObject(v) && Object.values(v).every((x) => typeof x === 'string'));
  }

  private sealMap(m: Record<string, string>): string | null {
    return Object.keys(m).length ? this.deps.secrets.seal(JSON.stringify(m)) : null;
  }

  private spec(r: McpServerRow): ServerSpec {
    return {
      id: r.id, name: r.name, transport: r.transport, command: r.command, args: argsOf(r), env: this.openMap(r.env),
      cwd: r.cwd, url: r.url, headers: this.openMap(r.headers),
    };
  }

  /**
   * The live connection of a server, replaced when its settings changed: the old one is closed
   * (once a start under way has ended), and nothing started with the old settings is reused.
   */
  private connection(r: McpServerRow): McpConnection {
    const cur = this.connections.get(r.id);
    const version = versionOf(r);
    if (cur && cur.version === version) return cur.conn;
    if (cur) void cur.conn.close();
    const conn = new McpConnection(this.spec(r), this.ctx.log);
    this.connections.set(r.id, { version, conn });
    return conn;
  }

  private view(r: McpServerRow): McpServer {
    const conn = this.connections.get(r.id)?.conn;
    const env = this.openMap(r.env);
    const headers = this.openMap(r.headers);
    // A server may print its own env or headers: what it wrote is shown with their values masked.
    const secrets = [...Object.values(env), ...Object.values(headers), ...Object.values(headers).map((v) => v.replace(/^\S+\s+/, ''))];
    return {
      id: r.id,
      name: r.name,
      transport: r.transport,
      command: r.command,
      args: argsOf(r),
      cwd: r.cwd,
      url: r.url,
      has_env: Object.keys(env).length > 0,
      env_keys: Object.keys(env),
      header_names: Object.keys(headers),
      approval: r.approval,
      always_tools: alwaysOf(r),
      enabled: r.enabled === 1,
      status: conn?.status ?? 'stopped',
      error: conn?.error ? maskSecrets(conn.error, secrets) : null,
      stderr: maskSecrets(conn?.stderr ?? '', secrets),
      pid: conn?.pid ?? null,
      restarts: conn?.restarts ?? 0,
      created_at: isoMicros(r.created_at),
      updated_at: isoMicros(r.updated_at),
    };
  }

  private row(userId: number, rawId: string | number): McpServerRow {
    const id = parseId(rawId);
    const r = id ? this.store.one(userId, id) : undefined;
    if (!r) throw new NotFoundError('MCP server not found');
    return r;
  }

  list(userId: number): { data: McpServer[] } {
    return { data: this.store.list(userId).map((r) => this.view(r)) };
  }

  get(userId: number, rawId: string | number): McpServer {
    return this.view(this.row(userId, rawId));
  }

  /** Checks a server's fields as a whole (after a create or a patch): 422 with every problem. */
  private validate(userId: number, w: McpServerWrite, selfId: number | null): void {
    const errors: Record<string, string[]> = {};
    if (w.transport === 'stdio' && !w.command) errors.command = [say.required('command', 'for a stdio server')];
    if (w.transport === 'http' && !w.url) errors.url = [say.required('url', 'for an http server')];
    const same = this.store.byName(userId, w.name);
    if (same && same.id !== selfId) errors.name = ['The name has already been taken.'];
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  create(userId: number, body: McpServerCreate): McpServer {
    const transport = body.transport ?? (body.url && !body.command ? 'http' : 'stdio');
    const headers = { ...(body.headers ?? {}) };
    if (body.bearer) headers.Authorization = `Bearer ${body.bearer}`;
    const w: McpServerWrite = {
      user_id: userId, name: body.name, transport, command: body.command ?? null, args: JSON.stringify(body.args ?? []), env: this.sealMap(body.env ?? {}),
      cwd: body.cwd ?? null, url: body.url ?? null, headers: this.sealMap(headers), approval: body.approval ?? 'ask', always_tools: '[]',
      enabled: body.enabled === false ? 0 : 1, updated_at: nowMicros(),
    };
    this.validate(userId, w, null);
    const id = this.store.insert(w);
    this.fetchInBackground(this.row(userId, id));
    return this.get(userId, id);
  }

  /**
   * A stored secret goes only where it was entered for: a patch that changes the command, args or
   * working folder of a stdio server keeping env values, or the URL of an HTTP server keeping
   * headers, is refused unless every kept value is given again.
   */
  private checkDestination(r: McpServerRow, w: McpServerWrite, body: McpServerUpdate): void {
    const kept = (sealed: string | null, patch: Record<string, string | null> | undefined, also: string[] = []) =>
      Object.keys(this.openMap(sealed)).filter((k) => !(patch && k in patch) && !also.includes(k));
    const moved = (fields: [keyof McpServerWrite, string][]) => fields.find(([k]) => w[k] !== r[k])?.[1] ?? null;
    if (w.transport === 'stdio') {
      const env = kept(r.env, body.env);
      const field = moved([['transport', 'transport'], ['command', 'command'], ['args', 'args'], ['cwd', 'cwd']]);
      keepSecretOnlyWhereEntered({ kept: env.length > 0, given: false, moved: field }, () => `To change the ${field} of "${r.name}", enter its env values again (${env.join(', ')}): stored secrets are only sent to the command they were entered for.`);
    } else {
      const headers = kept(r.headers, body.headers, body.bearer !== undefined ? ['Authorization'] : []);
      const field = moved([['transport', 'transport'], ['url', 'url']]);
      keepSecretOnlyWhereEntered({ kept: headers.length > 0, given: false, moved: field }, () => `To change the ${field} of "${r.name}", enter its headers again (${headers.join(', ')}): stored secrets are only sent to the URL they were entered for.`);
    }
  }

  update(userId: number, rawId: string | number, body: McpServerUpdate): McpServer {
    const r = this.row(userId, rawId);
    const patchMap = (sealed: string | null, patch: Record<string, string | null> | undefined) => {
      const m = this.openMap(sealed);
      for (const [k, v] of Object.entries(patch ?? {})) {
        if (v === null) delete m[k];
        else m[k] = v;
      }
      return m;
    };
    const headers = patchMap(r.headers, body.headers);
    if (body.bearer !== undefined) {
      if (body.bearer) headers.Authorization = `Bearer ${body.bearer}`;
      else delete headers.Authorization;
    }
    const w: McpServerWrite = {
      user_id: userId,
      name: body.name ?? r.name,
      transport: body.transport ?? r.transport,
      command: body.command !== undefined ? body.command : r.command,
      args: body.args ? JSON.stringify(body.args) : r.args,
      env: this.sealMap(patchMap(r.env, body.env)),
      cwd: body.cwd !== undefined ? body.cwd : r.cwd,
      url: body.url !== undefined ? body.url : r.url,
      headers: this.sealMap(headers),
      approval: body.approval ?? r.approval,
      always_tools: body.always_tools ? JSON.stringify([...new Set(body.always_tools)]) : r.always_tools,
      enabled: body.enabled === undefined ? r.enabled : body.enabled ? 1 : 0,
      updated_at: nowMicros(),
    };
    this.validate(userId, w, r.id);
    this.checkDestination(r, w, body);
    this.store.update(r.id, w);
    const next = this.row(userId, r.id);
    // Disabled: stop now. Connection settings changed or switched on: start with the new ones and list its tools.
    if (next.enabled !== 1) {
      if (this.connections.has(r.id)) void this.connection(next).stop();
    } else if (versionOf(next) !== versionOf(r) || r.enabled !== 1) {
      this.forgetListed(r.id);
      this.fetchInBackground(next);
    }
    return this.view(next);
  }

  async delete(userId: number, rawId: string | number): Promise<{ id: number; deleted: boolean }> {
    const r = this.row(userId, rawId);
    this.store.delete(userId, r.id);
    const cur = this.connections.get(r.id);
    this.connections.delete(r.id);
    this.forgetListed(r.id);
    await cur?.conn.close();
    return { id: r.id, deleted: true };
  }

  /** Claude Desktop / Cursor `mcpServers` JSON: each entry becomes a server; names already present are skipped. */
  import(userId: number, body: McpImport): { imported: McpServer[]; skipped: { name: string; reason: string }[] } {
    const imported: McpServer[] = [];
    const skipped: { name: string; reason: string }[] = [];
    this.store.transaction(() => {
      for (const [name, e] of Object.entries(body.mcpServers)) {
        if (this.store.byName(userId, name)) {
          skipped.push({ name, reason: 'A server with this name exists.' });
          continue;
        }
        const isHttp = !e.command && !!e.url;
        if (!e.command && !e.url) {
          skipped.push({ name, reason: 'The entry has neither a command nor a url.' });
          continue;
        }
        if (isHttp && e.type === 'sse') {
          skipped.push({ name, reason: 'The legacy SSE transport is not supported; use the server\'s Streamable HTTP URL.' });
          continue;
        }
        try {
          imported.push(
            this.create(userId, {
              name: name.slice(0, 100), transport: isHttp ? 'http' : 'stdio', command: e.command ?? null, args: e.args ?? [], env: e.env ?? {}, cwd: e.cwd ?? null,
              url: isHttp ? (e.url ?? null) : null, headers: e.headers ?? {}, approval: body.approval ?? 'ask', enabled: e.disabled !== true,
            }),
          );
        } catch (err) {
          skipped.push({ name, reason: err instanceof ValidationError ? err.message : String(err) });
        }
      }
    });
    return { imported, skipped };
  }

  /** Starts the server when needed and lists its tools, keeping the list for GETs and the next runs. */
  private fetchTools(r: McpServerRow, signal: AbortSignal): Promise<ListedTool[]> {
    const version = versionOf(r);
    const running = this.fetching.get(r.id);
    if (running?.version === version) return running.list;
    const p = this.connection(r)
      .listTools(signal)
      .then((tools) => {
        const now = this.store.one(r.user_id, r.id);
        const listed = this.deps.settings.get('tools.listed', {});
        const had = listed[String(r.id)];
        // A list of what the server was before a change is not its list now; an unchanged one is not written again.
        if (now && versionOf(now) === version && !(had?.version === version && JSON.stringify(had.tools) === JSON.stringify(tools))) {
          this.deps.settings.set('tools.listed', { ...listed, [String(r.id)]: { version, tools, fetched_at: Date.now() } });
        }
        return tools;
      })
      .finally(() => {
        if (this.fetching.get(r.id)?.list === p) this.fetching.delete(r.id);
      });
    this.fetching.set(r.id, { version, list: p });
    return p;
  }

  /** On save: start it and list its tools without holding the answer up (its status tells how it went). */
  private fetchInBackground(r: McpServerRow): void {
    if (this.closed || r.enabled !== 1) return;
    this.fetchTools(r, AbortSignal.timeout(45_000)).catch((err) => this.ctx.log.info({ server: r.name, err: (err as Error)?.message }, 'an MCP server did not list its tools on save'));
  }

  private forgetListed(id: number): void {
    const listed = this.deps.settings.get('tools.listed', {});
    if (!(String(id) in listed)) return;
    delete listed[String(id)];
    this.deps.settings.set('tools.listed', listed);
  }

  private listFailed(r: McpServerRow, err: unknown): ConflictError {
    return new ConflictError(`The MCP server "${r.name}" did not list its tools: ${(err as Error)?.message ?? String(err)}`);
  }

  /**
   * GET: the tools as last fetched (on save, on refresh or for a run). Never starts the server nor
   * connects to it; a fetch already under way is waited for.
   */
  async tools(userId: number, rawId: string | number): Promise<{ data: ListedTool[] }> {
    const r = this.row(userId, rawId);
    if (r.enabled !== 1) throw new ConflictError('This MCP server is disabled; enable it to list its tools.');
    const running = this.fetching.get(r.id);
    if (running?.version === versionOf(r)) {
      try {
        return { data: await running.list };
      } catch (err) {
        throw this.listFailed(r, err);
      }
    }
    const listed = this.deps.settings.get('tools.listed', {})[String(r.id)];
    if (listed && listed.version === versionOf(r)) return { data: listed.tools };
    const error = this.connections.get(r.id)?.conn.error;
    throw new ConflictError(
      error
        ? `The MCP server "${r.name}" did not list its tools: ${maskSecrets(error, [...Object.values(this.openMap(r.env)), ...Object.values(this.openMap(r.headers))])}`
        : `The tools of the MCP server "${r.name}" have not been fetched yet: refresh it to start it and list them.`,
    );
  }

  /** POST refresh: starts the server when needed and fetches its tools again. */
  async refresh(userId: number, rawId: string | number): Promise<{ data: ListedTool[] }> {
    const r = this.row(userId, rawId);
    if (r.enabled !== 1) throw new ConflictError('This MCP server is disabled; enable it to list its tools.');
    try {
      return { data: await this.fetchTools(r, AbortSignal.timeout(45_000)) };
    } catch (err) {
      throw this.listFailed(r, err);
    }
  }

  private checkRefs(userId: number, refs: ToolServerRef[]): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    refs.forEach((ref, i) => {
      if (!this.store.one(userId, ref.server_id)) errors[`tool_servers.${i}.server_id`] = [say.invalid(`tool_servers.${i}.server_id`)];
    });
    return errors;
  }

  private limits(): ToolLimits {
    return this.deps.settings.get('tools.limits', {});
  }

  /** The tools of the agent's enabled servers; a server that cannot start is left out (its status says why). */
  async toolboxFor(userId: number, agentId: number, executionId: number, signal: AbortSignal): Promise<Toolbox | null> {
    const agent = this.deps.agents.get(userId, agentId);
    const refs = agent.tool_servers ?? [];
    if (!refs.length || this.closed) return null;
    const found: { row: McpServerRow; tool: ListedTool }[] = [];
    const unavailable: { serverId: number; server: string; error: string }[] = [];
    for (const ref of refs) {
      const row = this.store.one(userId, ref.server_id);
      if (!row || row.enabled !== 1) continue;
      try {
        const listed = await untilAborted(this.fetchTools(row, signal), signal);
        for (const t of listed) if (!ref.tools || ref.tools.includes(t.name)) found.push({ row, tool: t });
      } catch (err) {
        signal.throwIfAborted();
        this.ctx.log.warn({ err, server: row.name, execution: executionId }, 'an MCP server of the agent is unavailable; its tools are left out');
        unavailable.push({ serverId: row.id, server: row.name, error: (err as Error)?.message ?? String(err) });
      }
    }
    if (!found.length && !unavailable.length) return null;
    const names = functionNames(found.map((f) => ({ server: f.row.name, tool: f.tool.name })));
    const tools: AgentTool[] = found.map((f, i) => ({
      name: names[i], serverId: f.row.id, server: f.row.name, tool: f.tool.name, description: f.tool.description, parameters: f.tool.input_schema,
    }));
    const limits = this.limits();
    return {
      tools,
      unavailable,
      maxSteps: limits.max_steps,
      callTimeoutMs: limits.call_timeout_ms,
      maxResultChars: limits.max_result_chars,
      approve: async (tool, _args, stepId, sig, onWait): Promise<Approval> => {
        const row = this.store.one(userId, tool.serverId);
        if (!row) return 'denied';
        if (row.approval === 'auto' || alwaysOf(row).includes(tool.tool)) return 'auto';
        onWait();
        const d = await this.approvals.wait(executionId, stepId, { userId, serverId: tool.serverId, tool: tool.tool }, sig);
        return d === 'allow' || d === 'always' ? 'user' : 'denied';
      },
      call: async (tool, args, opts) => {
        const row = this.store.one(userId, tool.serverId);
        if (!row) throw new Error(`The MCP server "${tool.server}" was removed.`);
        return this.connection(row).call(tool.tool, args, opts);
      },
    };
  }

  /** Answers a step waiting for approval; "always" also lets the tool run unasked from now on. */
  decide(userId: number, executionId: number, rawStep: string, decision: Decision): void {
    const stepId = parseId(rawStep);
    const pending = stepId ? this.approvals.waiting(executionId, stepId) : undefined;
    if (!pending || pending.userId !== userId) throw new ConflictError('This step is not waiting for approval.');
    if (decision === 'always') {
      const row = this.store.one(userId, pending.serverId);
      if (row) {
        const list = alwaysOf(row);
        if (!list.includes(pending.tool)) this.store.setAlways(row.id, [...list, pending.tool], nowMicros());
      }
    }
    this.approvals.answer(executionId, stepId!, decision);
  }

  /** Pid of a running stdio server (tests and diagnostics). */
  connectionOf(userId: number, rawId: string | number): McpConnection {
    return this.connection(this.row(userId, rawId));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.connections.values()].map((c) => c.conn.close()));
  }
}

const argsOf = (r: McpServerRow): string[] => readStoredList<string>(r.args, { column: 'mcp_servers.args', id: r.id }, (v) => typeof v === 'string');
const alwaysOf = (r: McpServerRow): string[] => readStoredList<string>(r.always_tools, { column: 'mcp_servers.always_tools', id: r.id }, (v) => typeof v === 'string');
