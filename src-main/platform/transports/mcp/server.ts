import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { agentOperations } from '../../contract/agents.js';
import { memoryOperations } from '../../contract/memories.js';
import { executionOperations } from '../../contract/executions.js';
import { fileOperations } from '../../contract/files.js';
import { retrievalOperations } from '../../contract/retrieval.js';
import { registerTools, type ToolContext } from './tools.js';
import { operationTools } from './operation-tools.js';
import { presenters } from './presenters.js';
import { registerResources } from './resources.js';
import { runAgentTool } from './run-agent.js';

export const MCP_SERVER_NAME = 'agent-desk';

/**
 * The contract's tables whose operations may be marked for MCP, in the order their tools are listed
 * (test/mcp/generated-tools fails on a marked operation of a table not named here).
 */
export const TOOL_TABLES = { first: [agentOperations, memoryOperations], then: [executionOperations, fileOperations, retrievalOperations] } as const;

/**
 * One MCP server with every Agent Desk tool and resource, bound to one caller. Both transports
 * (Streamable HTTP at /mcp, stdio via `npm run mcp`) build their server here, so they cannot drift.
 * The tools are the operations marked for MCP, and `run_agent`, which runs an agent to its end.
 */
export function createMcpServer(ctx: ToolContext): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Agent Desk: run your local AI agents (list_agents, run_agent, get_agent_response), keep their memories (search/create/update/delete memories, list_collections) and read processed files (list_files, read_file). Memory collections are resources: collection://{id}.',
    },
  );
  // The order clients have always listed them in: agents and memories, running an agent, then executions and files.
  registerTools(server, ctx, [...operationTools(ctx, TOOL_TABLES.first, presenters), runAgentTool(ctx), ...operationTools(ctx, TOOL_TABLES.then, presenters)]);
  registerResources(server, ctx);
  return server;
}
