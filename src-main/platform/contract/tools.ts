import { z } from 'zod';
import { ErrorBody, httpUrl, IdPath } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/** CONTRACT.md "Tools and schedules (ext)": MCP servers as tool sources, agents' tool servers, execution steps. */

export const McpTransport = z.enum(['stdio', 'http']);
export const McpApproval = z.enum(['auto', 'ask']);
export const McpStatus = z.enum(['stopped', 'starting', 'running', 'failed']);

const name = z.string().trim().min(1, say.required('name')).max(100);
const stringMap = z.record(z.string().min(1).max(200), z.string().max(10_000)).refine((m) => Object.keys(m).length <= 100, 'At most 100 entries.');
/** PATCH: a null value removes that entry. */
const stringMapPatch = z.record(z.string().min(1).max(200), z.string().max(10_000).nullable()).refine((m) => Object.keys(m).length <= 100, 'At most 100 entries.');
const serverUrl = httpUrl(say.must('url', 'be a valid http or https URL'));

const serverFields = {
  name,
  transport: McpTransport.optional(),
  command: z.string().trim().min(1).max(1000).nullable().optional(),
  args: z.array(z.string().max(10_000)).max(200).optional(),
  env: stringMap.optional(),
  cwd: z.string().max(4096).nullable().optional(),
  url: serverUrl.nullable().optional(),
  headers: stringMap.optional(),
  /** Convenience: becomes an `Authorization: Bearer <token>` header (write-only like the others). */
  bearer: z.string().max(10_000).optional(),
  approval: McpApproval.optional(),
  enabled: z.boolean().optional(),
};

export const McpServerCreate = z.object(serverFields).meta({ id: 'McpServerCreate' });
export type McpServerCreate = z.infer<typeof McpServerCreate>;

export const McpServerUpdate = z
  .object({ ...serverFields, name: name.optional(), env: stringMapPatch.optional(), headers: stringMapPatch.optional(), always_tools: z.array(z.string().max(200)).max(500).optional() })
  .meta({ id: 'McpServerUpdate' });
export type McpServerUpdate = z.infer<typeof McpServerUpdate>;

export const McpServer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    transport: McpTransport,
    command: z.string().nullable(),
    args: z.array(z.string()),
    cwd: z.string().nullable(),
    url: z.string().nullable(),
    /** Secrets are write-only: the answer tells which exist, never their values. */
    has_env: z.boolean(),
    env_keys: z.array(z.string()),
    header_names: z.array(z.string()),
    approval: McpApproval,
    /** Tools the user allowed with "Always" (they run without asking). */
    always_tools: z.array(z.string()),
    enabled: z.boolean(),
    status: McpStatus,
    error: z.string().nullable(),
    /** The last lines the server wrote to stderr (stdio servers). */
    stderr: z.string(),
    pid: z.number().int().nullable(),
    restarts: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'McpServer' });
export type McpServer = z.infer<typeof McpServer>;

export const McpServerList = z.object({ data: z.array(McpServer) }).meta({ id: 'McpServerList' });
export const McpServerDeleted = z.object({ id: z.number().int(), deleted: z.boolean() });

/** Claude Desktop / Cursor `mcpServers` entries: a command, or a url (`type` optional). */
const ImportEntry = z.looseObject({
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  type: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  disabled: z.boolean().optional(),
});
export const McpImport = z
  .object({ mcpServers: z.record(z.string(), ImportEntry), approval: McpApproval.optional() })
  .meta({ id: 'McpImport' });
export type McpImport = z.infer<typeof McpImport>;
export const McpImportResult = z
  .object({ imported: z.array(McpServer), skipped: z.array(z.object({ name: z.string(), reason: z.string() })) })
  .meta({ id: 'McpImportResult' });

export const McpTool = z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) }).meta({ id: 'McpTool' });
export const McpToolList = z.object({ data: z.array(McpTool) }).meta({ id: 'McpToolList' });

/** ext on agents: which servers (and optionally which of their tools) the agent may use. */
export const ToolServerRef = z.object({ server_id: z.number().int().positive(), tools: z.array(z.string().min(1).max(200)).max(500).nullable().default(null) }).meta({ id: 'ToolServerRef' });
export type ToolServerRef = z.infer<typeof ToolServerRef>;
export const ToolServers = z
  .array(ToolServerRef)
  .max(50)
  .refine((l) => new Set(l.map((r) => r.server_id)).size === l.length, 'Each server may be listed once.');

/** ext on executions: one tool call of the run. */
export const StepStatus = z.enum(['awaiting_approval', 'running', 'succeeded', 'failed', 'denied']);
export const ToolStep = z
  .object({
    id: z.number().int(),
    type: z.literal('tool_call'),
    server_id: z.number().int().nullable(),
    /** the server's name, for display */
    server: z.string().nullable(),
    tool: z.string(),
    arguments: z.unknown(),
    result: z.string().nullable(),
    error: z.string().nullable(),
    status: StepStatus,
    approved: z.enum(['auto', 'user']).nullable(),
    started_at: z.string(),
    duration_ms: z.number().int().nullable(),
    /** ext: while it waits for approval, when it is denied unanswered (ISO time) */
    approval_expires_at: z.string().optional(),
  })
  .meta({ id: 'ToolStep' });
export type ToolStep = z.infer<typeof ToolStep>;

export const StepDecision = z.object({ always: z.boolean().optional() }).meta({ id: 'StepDecision' });
export const StepPath = z.object({ id: z.string(), step: z.string() });

const tags = ['Tools'] as const;
const conflict = { 409: ['Conflict', ErrorBody] } as const;

/** /api/mcp-servers (ext): MCP servers as tool sources (modules/tools/routes.ts handles them). */
export const mcpServerOperations = operations({
  listMcpServers: { method: 'get', path: '/mcp-servers', tags, summary: 'List MCP servers (ext)', response: McpServerList },
  createMcpServer: {
    method: 'post',
    path: '/mcp-servers',
    tags,
    summary: 'Add an MCP server (ext): stdio (command, args, env, cwd) or Streamable HTTP (url, headers, bearer)',
    body: McpServerCreate,
    response: McpServer,
    status: 201,
  },
  importMcpServers: { method: 'post', path: '/mcp-servers/import', tags, summary: 'Import a Claude Desktop / Cursor `mcpServers` JSON (ext)', body: McpImport, response: McpImportResult },
  getMcpServer: { method: 'get', path: '/mcp-servers/{id}', tags, summary: 'Get an MCP server with its status and stderr (ext)', params: IdPath, response: McpServer, notFound: 'MCP server' },
  updateMcpServer: {
    method: 'patch',
    path: '/mcp-servers/{id}',
    tags,
    summary: 'Update an MCP server (ext); env/headers entries set to null are removed',
    params: IdPath,
    body: McpServerUpdate,
    response: McpServer,
    notFound: 'MCP server',
  },
  deleteMcpServer: { method: 'delete', path: '/mcp-servers/{id}', tags, summary: 'Remove an MCP server (ext); it is stopped', params: IdPath, response: McpServerDeleted, notFound: 'MCP server' },
  listMcpServerTools: {
    method: 'get',
    path: '/mcp-servers/{id}/tools',
    tags,
    summary: "An MCP server's tools as last fetched (on save, refresh or a run) (ext); never starts the server",
    params: IdPath,
    response: McpToolList,
    notFound: 'MCP server',
    errors: conflict,
  },
  refreshMcpServerTools: {
    method: 'post',
    path: '/mcp-servers/{id}/refresh',
    tags,
    summary: 'Start an MCP server when needed and fetch its tools again (ext)',
    params: IdPath,
    response: McpToolList,
    notFound: 'MCP server',
    errors: conflict,
  },
});
