import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { PlatformError } from '../../kernel/errors.js';
import type { ToolContext } from './tools.js';

/** The MCP spec's code for an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;
/** A resource read returns at most this many memories (newest first), so one read stays bounded. */
export const COLLECTION_READ_LIMIT = 200;
const LIST_LIMIT = 500;

/** `collection://{id}`: each memory collection, read as JSON with its newest memories. */
export function registerResources(server: McpServer, ctx: ToolContext): void {
  const { collections, memories } = ctx.platform.services;
  const userId = ctx.principal.userId;

  server.registerResource(
    'collection',
    new ResourceTemplate('collection://{id}', {
      list: () => ({
        resources: collections.list(userId, { page: 1, per_page: LIST_LIMIT }).items.map((c) => ({
          uri: `collection://${c.id}`,
          name: c.display_name,
          description: `Memory collection "${c.display_name}"`,
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'Memory collection', description: 'A memory collection with its memories, newest first.', mimeType: 'application/json' },
    (uri, vars) => {
      const raw = Array.isArray(vars.id) ? vars.id[0] : vars.id;
      try {
        const col = collections.get(userId, raw);
        const page = memories.list(userId, { collection_id: col.id, page: 1, per_page: COLLECTION_READ_LIMIT });
        const body = { collection: col, total: page.total, shown: page.items.length, memories: page.items };
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      } catch (err) {
        if (err instanceof PlatformError) throw new McpError(RESOURCE_NOT_FOUND, `${err.message}: ${uri.href}`);
        throw err;
      }
    },
  );
}
