/**
 * One MCP server as a client connection: started on first use, restarted after a crash with
 * backoff, stopped at shutdown; its status, last error and stderr tail are kept for Settings.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../kernel/log.js';
import type { BackoffSchedule } from '../../kernel/backoff.js';
import { RestartSupervisor } from '../../kernel/supervisor.js';

export interface ServerSpec {
  id: number;
  name: string;
  transport: 'stdio' | 'http';
  command: string | null;
  args: string[];
  env: Record<string, string>;
  cwd: string | null;
  url: string | null;
  headers: Record<string, string>;
}

export interface ListedTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export type ServerStatus = 'stopped' | 'starting' | 'running' | 'failed';

const STDERR_KEEP = 8 * 1024;
const CONNECT_TIMEOUT_MS = 30_000;
/** A server that ran this long before it died starts again without waiting. */
const HEALTHY_MS = 60_000;
/** Restarts after a crash: 0.5 s, doubling, at most 30 s. */
const RESTART_BACKOFF: BackoffSchedule = { firstMs: 500, maxMs: 30_000 };

type Content = { type: string; text?: string; mimeType?: string; data?: string; uri?: string; resource?: { uri?: string; text?: string; blob?: string } };

/** An MCP tool result as text for the model: text parts as is, other parts described. */
export function resultText(result: { content?: Content[]; structuredContent?: unknown; toolResult?: unknown }): string {
  const parts: string[] = [];
  for (const c of result.content ?? []) {
    if (c.type === 'text') parts.push(c.text ?? '');
    else if (c.type === 'image' || c.type === 'audio') parts.push(`[${c.type} ${c.mimeType ?? ''}, ${Math.floor(((c.data?.length ?? 0) * 3) / 4)} bytes]`);
    else if (c.type === 'resource') parts.push(c.resource?.text ?? `[resource ${c.resource?.uri ?? ''}]`);
    else if (c.type === 'resource_link') parts.push(`[resource link ${c.uri ?? ''}]`);
    else parts.push(JSON.stringify(c));
  }
  if (!parts.length && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  if (!parts.length && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return parts.join('\n');
}

export class McpConnection {
  status: ServerStatus = 'stopped';
  error: string | null = null;
  stderr = '';
  pid: number | null = null;
  restarts = 0;
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private tools: ListedTool[] | null = null;
  /** Restarts wait longer after each failure in a row; a server that ran a minute starts the count again. */
  private readonly restart = new RestartSupervisor({ schedule: RESTART_BACKOFF, healthyMs: HEALTHY_MS });
  private nextStartAt = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private closed = false;

  constructor(
    private readonly spec: ServerSpec,
    private readonly log: Logger,
  ) {}

  private appendStderr(chunk: Buffer | string): void {
    this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEEP);
  }

  private transport(): Transport {
    const s = this.spec;
    if (s.transport === 'stdio') {
      if (!s.command) throw new Error(`The MCP server "${s.name}" has no command.`);
      const t = new StdioClientTransport({ command: s.command, args: s.args, env: { ...getDefaultEnvironment(), ...s.env }, cwd: s.cwd ?? undefined, stderr: 'pipe' });
      t.stderr?.on('data', (c: Buffer) => this.appendStderr(c));
      return t;
    }
    if (!s.url) throw new Error(`The MCP server "${s.name}" has no URL.`);
    return new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: s.headers } });
  }

  /** The connected client, starting the server when needed (waiting out a crash backoff). */
  async connect(signal?: AbortSignal): Promise<Client> {
    if (this.client) return this.client;
    if (this.connecting) return this.connecting;
    if (this.closed) throw new Error(`The MCP server "${this.spec.name}" is stopped (Agent Desk is closing).`);
    const wait = this.nextStartAt - Date.now();
    if (wait > 0) {
      await new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          clearTimeout(t);
          reject(signal!.reason);
        };
        // The listener goes with the wait: a long-lived signal (a run's) must not collect one per call.
        const t = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, wait);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      if (this.client) return this.client;
      if (this.connecting) return this.connecting;
    }
    this.connecting = this.start().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async start(): Promise<Client> {
    this.clearRestart();
    this.status = 'starting';
    this.error = null;
    const client = new Client({ name: 'Agent Desk', version: '1.0.0' });
    let transport: Transport | null = null;
    try {
      transport = this.transport();
      client.onclose = () => this.lost(client);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        this.tools = null;
      });
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      this.fail(`Could not start: ${(err as Error)?.message ?? String(err)}${this.stderrHint()}`);
      throw new Error(`The MCP server "${this.spec.name}" could not start: ${(err as Error)?.message ?? String(err)}`);
    }
    this.client = client;
    this.tools = null;
    this.status = 'running';
    this.restart.started();
    this.pid = transport instanceof StdioClientTransport ? transport.pid : null;
    return client;
  }

  private stderrHint(): string {
    const last = this.stderr.trim().split('\n').slice(-3).join('\n');
    return last ? `\nstderr: ${last}` : '';
  }

  /** `died`: it had started (a healthy run before starts the count again); else it never got going. Returns the wait. */
  private fail(message: string, died = false): number {
    this.status = 'failed';
    this.error = message;
    const wait = (died ? this.restart.died() : this.restart.failed()) ?? 0;
    this.nextStartAt = Date.now() + wait;
    return wait;
  }

  /** The connection closed: by us (stop) or by the server (a crash: restart after a backoff). */
  private lost(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.tools = null;
    this.pid = null;
    if (this.stopping || this.closed) {
      this.status = 'stopped';
      return;
    }
    const wait = this.fail(`The server exited unexpectedly.${this.stderrHint()}`, true);
    this.log.warn({ server: this.spec.name, failures: this.restart.failures }, 'an MCP server exited; restarting it after a backoff');
    this.clearRestart();
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.client || this.connecting || this.closed) return;
      this.restarts++;
      this.connecting = this.start().finally(() => (this.connecting = null));
      this.connecting.catch(() => {});
    }, wait);
    this.restartTimer.unref();
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  async listTools(signal?: AbortSignal): Promise<ListedTool[]> {
    if (this.tools && this.client) return this.tools;
    const client = await this.connect(signal);
    const out: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      let page: Awaited<ReturnType<Client['listTools']>>;
      try {
        page = await client.listTools(cursor ? { cursor } : undefined, { signal, timeout: CONNECT_TIMEOUT_MS });
      } catch (err) {
        if (!signal?.aborted && this.spec.transport === 'http' && !(err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)) this.dropHttp(client, err);
        throw err;
      }
      for (const t of page.tools) out.push({ name: t.name, description: t.description ?? '', input_schema: (t.inputSchema ?? { type: 'object' }) as Record<string, unknown> });
      cursor = page.nextCursor;
    } while (cursor && out.length < 1000);
    this.tools = out;
    return out;
  }

  async call(tool: string, args: Record<string, unknown>, opts: { signal: AbortSignal; timeoutMs: number }): Promise<{ text: string; isError: boolean }> {
    const client = await this.connect(opts.signal);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal: opts.signal, timeout: opts.timeoutMs });
      return { text: resultText(result as Parameters<typeof resultText>[0]), isError: result.isError === true };
    } catch (err) {
      if (opts.signal.aborted) throw err;
      if (!this.client) throw new Error(`The MCP server "${this.spec.name}" stopped while ${tool} ran (${(err as Error)?.message ?? 'connection closed'}).`);
      // An HTTP server that went away (or restarted and forgot our session) never closes the
      // connection by itself: drop it, so that the next use connects again after a backoff.
      if (this.spec.transport === 'http' && !(err instanceof McpError && err.code !== ErrorCode.ConnectionClosed)) {
        this.dropHttp(client, err);
        throw new Error(`The MCP server "${this.spec.name}" could not be reached while ${tool} ran (${(err as Error)?.message ?? String(err)}); it is reconnected on next use.`);
      }
      throw err;
    }
  }

  private dropHttp(client: Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = null;
    this.tools = null;
    client.onclose = undefined;
    void client.close().catch(() => {});
    this.fail(`The server could not be reached: ${(err as Error)?.message ?? String(err)}`, true);
    this.restarts++;
  }

  async stop(): Promise<void> {
    this.clearRestart();
    this.stopping = true;
    try {
      if (this.connecting) await this.connecting.catch(() => {});
      const c = this.client;
      this.client = null;
      this.tools = null;
      this.pid = null;
      if (c) await c.close().catch(() => {});
      if (this.status !== 'failed') this.status = 'stopped';
    } finally {
      this.stopping = false;
    }
  }

  /** Shutdown: stop, and never start again. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stop();
    this.status = 'stopped';
  }
}
