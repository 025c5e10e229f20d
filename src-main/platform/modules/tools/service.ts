/**
 * Tools from MCP servers (CONTRACT.md "Tools and schedules (ext)"): the user's servers, their
 * connections, the tools each agent may use, and approvals of tool calls.
 *
 *   list/get/create/update/delete/import(userId, ...)  the servers (secrets write-only in answers)
 *   tools(userId, id)                                  the server's tools (starts it on first use)
 *   toolboxFor(userId, agentId, executionId, signal)   the engine's Toolbox for one run
 *   decide(userId, executionId, step, decision)        answers a call waiting for approval
 *
 * Settings key `tools.limits` `{max_steps, call_timeout_ms, max_result_chars}` bounds each run.
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

declare module '../../kernel/settings.js' {
  interface SettingsMap {
    'tools.limits': ToolLimits;
  }
}


export interface ToolLimits {
  max_steps?: number;
  call_timeout_ms?: number;
  max_result_chars?: number;
}

export class ToolsService implements ToolboxSource {
  private readonly store: McpServersStore;
  private readonly connections = new Map<number, { version: string; conn: McpConnection }>();
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
    try {
      return JSON.parse(this.deps.secrets.open(sealed)) as Record<string, string>;
    } catch {
      return {};
    }
  }

  private sealMap(m: Record<string, string>): string | null {
    return Object.keys(m).length ? this.deps.secrets.seal(JSON.stringify(m)) : null;
  }

  private spec(r: McpServerRow): ServerSpec {
    return {
      id: r.id, name: r.name, transport: r.transport, command: r.command, args: JSON.parse(r.args) as string[], env: this.openMap(r.env),
      cwd: r.cwd, url: r.url, headers: this.openMap(r.headers),
    };
  }

  /** The live connection of a server, rebuilt when its settings changed. */
  private connection(r: McpServerRow): McpConnection {
    const cur = this.connections.get(r.id);
    // Only what the connection is made of counts (a new "Always" tool does not restart it).
    const version = JSON.stringify([r.name, r.transport, r.command, r.args, r.env, r.cwd, r.url, r.headers]);
    if (cur && cur.version === version) return cur.conn;
    if (cur) {
      cur.version = version;
      void cur.conn.reconfigure(this.spec(r));
      return cur.conn;
    }
    const conn = new McpConnection(this.spec(r), this.ctx.log);
    this.connections.set(r.id, { version, conn });
    return conn;
  }

  private view(r: McpServerRow): McpServer {
    const conn = this.connections.get(r.id)?.conn;
    const env = this.openMap(r.env);
    return {
      id: r.id,
      name: r.name,
      transport: r.transport,
      command: r.command,
      args: JSON.parse(r.args) as string[],
      cwd: r.cwd,
      url: r.url,
      has_env: Object.keys(env).length > 0,
      env_keys: Object.keys(env),
      header_names: Object.keys(this.openMap(r.headers)),
      approval: r.approval,
      always_tools: JSON.parse(r.always_tools) as string[],
      enabled: r.enabled === 1,
      status: conn?.status ?? 'stopped',
      error: conn?.error ?? null,
      stderr: conn?.stderr ?? '',
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
    if (w.transport === 'stdio' && !w.command) errors.command = ['The command field is required for a stdio server.'];
    if (w.transport === 'http' && !w.url) errors.url = ['The url field is required for an http server.'];
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
    return this.get(userId, this.store.insert(w));
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
    this.store.update(r.id, w);
    const next = this.row(userId, r.id);
    // Connection settings changed: the next use starts it with the new ones; disabled: stop now.
    if (this.connections.has(r.id)) {
      const conn = this.connection(next);
      if (next.enabled !== 1) void conn.stop();
    }
    return this.view(next);
  }

  async delete(userId: number, rawId: string | number): Promise<{ id: number; deleted: boolean }> {
    const r = this.row(userId, rawId);
    this.store.delete(userId, r.id);
    const cur = this.connections.get(r.id);
    this.connections.delete(r.id);
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

  async tools(userId: number, rawId: string | number): Promise<{ data: ListedTool[] }> {
    const r = this.row(userId, rawId);
    if (r.enabled !== 1) throw new ConflictError('This MCP server is disabled; enable it to list its tools.');
    try {
      return { data: await this.connection(r).listTools(AbortSignal.timeout(45_000)) };
    } catch (err) {
      throw new ConflictError(`The MCP server "${r.name}" did not list its tools: ${(err as Error)?.message ?? String(err)}`);
    }
  }

  private checkRefs(userId: number, refs: ToolServerRef[]): Record<string, string[]> {
    const errors: Record<string, string[]> = {};
    refs.forEach((ref, i) => {
      if (!this.store.one(userId, ref.server_id)) errors[`tool_servers.${i}.server_id`] = [`The selected tool_servers.${i}.server_id is invalid.`];
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
        const listed = await this.connection(row).listTools(signal);
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
        if (row.approval === 'auto' || (JSON.parse(row.always_tools) as string[]).includes(tool.tool)) return 'auto';
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
        const list = JSON.parse(row.always_tools) as string[];
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
