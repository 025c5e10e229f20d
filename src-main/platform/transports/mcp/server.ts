import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerCoreTools, type ToolContext } from './tools.js';
import { registerResources } from './resources.js';
import { registerRunAgent } from './run-agent.js';
import { registerFileTools } from './file-tools.js';

export const MCP_SERVER_NAME = 'agent-desk';

/**
 * One MCP server with every Agent Desk tool and resource, bound to one caller. Both transports
 * (Streamable HTTP at /mcp, stdio via `npm run mcp`) build their server here, so they cannot drift.
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
  registerCoreTools(server, ctx);
  registerRunAgent(server, ctx);
  registerFileTools(server, ctx);
  registerResources(server, ctx);
  return server;
}
