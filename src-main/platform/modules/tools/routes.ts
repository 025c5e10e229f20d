import type { ToolsService } from './service.js';
import type { ExecutionsService } from '../executions/service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { mcpServerOperations } from '../../contract/tools.js';
import { stepApprovalOperations } from '../../contract/step-approvals.js';

/** /api/mcp-servers (ext): MCP servers as tool sources. */
export function mcpServerRoutes({ tools }: { tools: ToolsService }) {
  const r = createRouter();
  serveOperations(r, mcpServerOperations, {
    listMcpServers: ({ userId }) => tools.list(userId),
    createMcpServer: ({ userId, body }) => tools.create(userId, body),
    importMcpServers: ({ userId, body }) => tools.import(userId, body),
    getMcpServer: ({ userId, params }) => tools.get(userId, params.id),
    updateMcpServer: ({ userId, params, body }) => tools.update(userId, params.id, body),
    deleteMcpServer: ({ userId, params }) => tools.delete(userId, params.id),
    listMcpServerTools: ({ userId, params }) => tools.tools(userId, params.id),
    refreshMcpServerTools: ({ userId, params }) => tools.refresh(userId, params.id),
  });
  return r;
}

/** POST /api/agent-responses/{id}/steps/{step}/approve|deny (ext): answers a tool call waiting for approval. */
export function stepApprovalRoutes({ tools, executions }: { tools: ToolsService; executions: ExecutionsService }) {
  const r = createRouter();
  const decide = (userId: number, id: string, step: string, decision: 'allow' | 'always' | 'deny') => {
    const execution = executions.get(userId, id);
    tools.decide(userId, execution.id, step, decision);
    return executions.get(userId, execution.id);
  };
  serveOperations(r, stepApprovalOperations, {
    approveStep: ({ userId, params, body }) => decide(userId, params.id, params.step, body?.always === true ? 'always' : 'allow'),
    denyStep: ({ userId, params }) => decide(userId, params.id, params.step, 'deny'),
  });
  return r;
}
