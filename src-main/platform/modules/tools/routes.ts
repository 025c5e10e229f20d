import { createRoute } from '@hono/zod-openapi';
import type { ToolsService } from './service.js';
import type { ExecutionsService } from '../executions/service.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { ErrorBody, IdPath } from '../../contract/common.js';
import { Execution } from '../../contract/executions.js';
import { McpImport, McpImportResult, McpServer, McpServerCreate, McpServerDeleted, McpServerList, McpServerUpdate, McpToolList, StepDecision, StepPath } from '../../contract/tools.js';

const conflict = { 409: { content: { 'application/json': { schema: ErrorBody } }, description: 'Conflict' } };

/** /api/mcp-servers (ext): MCP servers as tool sources. */
export function mcpServerRoutes({ tools }: { tools: ToolsService }) {
  const r = createRouter();
  const tags = ['Tools'];
  const user = (c: { get(k: 'principal'): { userId: number } }) => c.get('principal').userId;

  r.openapi(
    createRoute({ method: 'get', path: '/mcp-servers', tags, summary: 'List MCP servers (ext)', responses: { ...ok(McpServerList), ...errorResponses } }),
    (c) => c.json(tools.list(user(c)), 200),
  );
  r.openapi(
    createRoute({
      method: 'post', path: '/mcp-servers', tags, summary: 'Add an MCP server (ext): stdio (command, args, env, cwd) or Streamable HTTP (url, headers, bearer)',
      request: jsonBodyOf(McpServerCreate), responses: { 201: { content: { 'application/json': { schema: McpServer } }, description: 'Created' }, ...errorResponses },
    }),
    (c) => c.json(tools.create(user(c), c.req.valid('json')), 201),
  );
  r.openapi(
    createRoute({
      method: 'post', path: '/mcp-servers/import', tags, summary: 'Import a Claude Desktop / Cursor `mcpServers` JSON (ext)',
      request: jsonBodyOf(McpImport), responses: { ...ok(McpImportResult), ...errorResponses },
    }),
    (c) => c.json(tools.import(user(c), c.req.valid('json')), 200),
  );
  r.openapi(
    createRoute({ method: 'get', path: '/mcp-servers/{id}', tags, summary: 'Get an MCP server with its status and stderr (ext)', request: { params: IdPath }, responses: { ...ok(McpServer), ...notFound('MCP server'), ...errorResponses } }),
    (c) => c.json(tools.get(user(c), c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({
      method: 'patch', path: '/mcp-servers/{id}', tags, summary: 'Update an MCP server (ext); env/headers entries set to null are removed',
      request: { params: IdPath, ...jsonBodyOf(McpServerUpdate) }, responses: { ...ok(McpServer), ...notFound('MCP server'), ...errorResponses },
    }),
    (c) => c.json(tools.update(user(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  r.openapi(
    createRoute({ method: 'delete', path: '/mcp-servers/{id}', tags, summary: 'Remove an MCP server (ext); it is stopped', request: { params: IdPath }, responses: { ...ok(McpServerDeleted), ...notFound('MCP server'), ...errorResponses } }),
    async (c) => c.json(await tools.delete(user(c), c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({
      method: 'get', path: '/mcp-servers/{id}/tools', tags, summary: "An MCP server's tools as last fetched (on save, refresh or a run) (ext); never starts the server",
      request: { params: IdPath }, responses: { ...ok(McpToolList), ...notFound('MCP server'), ...conflict, ...errorResponses },
    }),
    async (c) => c.json(await tools.tools(user(c), c.req.valid('param').id), 200),
  );
  r.openapi(
    createRoute({
      method: 'post', path: '/mcp-servers/{id}/refresh', tags, summary: "Start an MCP server when needed and fetch its tools again (ext)",
      request: { params: IdPath }, responses: { ...ok(McpToolList), ...notFound('MCP server'), ...conflict, ...errorResponses },
    }),
    async (c) => c.json(await tools.refresh(user(c), c.req.valid('param').id), 200),
  );
  return r;
}

/** POST /api/agent-responses/{id}/steps/{step}/approve|deny (ext): answers a tool call waiting for approval. */
export function stepApprovalRoutes({ tools, executions }: { tools: ToolsService; executions: ExecutionsService }) {
  const r = createRouter();
  const tags = ['Execution'];
  for (const action of ['approve', 'deny'] as const) {
    r.openapi(
      createRoute({
        method: 'post',
        path: `/agent-responses/{id}/steps/{step}/${action}`,
        tags,
        summary: action === 'approve' ? 'Allow a tool call waiting for approval (ext); `{"always": true}` allows that tool from now on' : 'Deny a tool call waiting for approval (ext)',
        request: { params: StepPath, body: { content: { 'application/json': { schema: StepDecision } }, required: false } },
        responses: { ...ok(Execution), ...notFound('Agent response'), ...conflict, ...errorResponses },
      }),
      (c) => {
        const userId = c.get('principal').userId;
        const { id, step } = c.req.valid('param');
        const execution = executions.get(userId, id);
        const always = (c.req.valid('json') as { always?: boolean } | undefined)?.always === true;
        tools.decide(userId, execution.id, step, action === 'deny' ? 'deny' : always ? 'always' : 'allow');
        return c.json(executions.get(userId, execution.id), 200);
      },
    );
  }
  return r;
}
