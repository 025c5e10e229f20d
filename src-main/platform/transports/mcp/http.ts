import type { Context } from 'hono';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { AppEnv } from '../http/env.js';
import type { TransportDeps } from '../deps.js';
import type { App } from '../http/app.js';
import { createMcpServer } from './server.js';

/**
 * `/mcp`: MCP's Streamable HTTP transport in stateless mode. Each POST gets a fresh server and
 * transport bound to the caller's key: no session table to leak or expire, any number of clients,
 * and a restart loses nothing (every tool call is one request). Server-initiated messages on a
 * standalone GET stream are not offered (405), which stateless mode permits. A tool call is sent
 * through `app` as the caller, like any request of theirs.
 */
export function mcpHandler(p: TransportDeps, app: Pick<App, 'fetch'>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    if (c.req.method !== 'POST') {
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send JSON-RPC with POST.' }, id: null }, 405, {
        Allow: 'POST',
      });
    }
    const server = createMcpServer({ platform: { ...p, app }, principal: c.get('principal') });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      // With JSON responses the answer is complete here; closing frees the server's listeners.
      void server.close();
    }
  };
}
