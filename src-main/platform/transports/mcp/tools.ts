import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { TransportDeps } from '../deps.js';
import type { App } from '../http/app.js';
import type { Principal } from '../../kernel/context.js';
import type { JsonSchema } from './input-schema.js';
import { errorResult } from './results.js';

/**
 * What every tool runs with: the platform (its app, which a generated tool's call goes through)
 * and the caller (a bearer key's user, or the stdio user).
 */
export interface ToolContext {
  platform: TransportDeps & { app: Pick<App, 'fetch'> };
  principal: Principal;
}

/** One tool as tools/list shows it, and its call. */
export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations?: ToolAnnotations;
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

/**
 * Serves tools/list and tools/call for these tools. The SDK's `registerTool` is not used: it takes a
 * zod shape and validates the arguments with it before the call, a second validation in another
 * dialect, where a generated tool's arguments are checked once, by its operation. A tool that
 * throws answers a tool error (the platform's sentence, or a reference to the log), never a crash.
 */
export function registerTools(server: McpServer, ctx: ToolContext, tools: readonly Tool[]): void {
  const byName = new Map(tools.map((t) => [t.name, t]));
  if (byName.size !== tools.length) throw new Error('Two MCP tools have the same name');
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      ...(t.annotations ? { annotations: t.annotations } : {}),
      // Every call is answered in its request: no task augmentation.
      execution: { taskSupport: 'forbidden' as const },
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = byName.get(req.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `Tool ${req.params.name} not found` }] };
    try {
      return await tool.call(req.params.arguments ?? {}, extra.signal);
    } catch (err) {
      return errorResult(err, ctx.platform.log, tool.name);
    }
  });
}
