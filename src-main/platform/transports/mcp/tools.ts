import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TransportDeps } from '../deps.js';
import type { Principal } from '../../kernel/context.js';
import type { Agent } from '../../contract/agents.js';
import { MEMORY_MAX } from '../../contract/memories.js';
import { errorResult, jsonResult } from './results.js';

/** What every tool runs with: the platform and the caller (a bearer key's user, or the stdio user). */
export interface ToolContext {
  platform: TransportDeps;
  principal: Principal;
}

const page = z.number().int().min(1).optional().describe('Page number, from 1 (default 1).');
const perPage = (max: number, dflt: number) => z.number().int().min(1).max(max).optional().describe(`Items per page, 1..${max} (default ${dflt}).`);
const memoryText = z.string().min(1).max(MEMORY_MAX).describe(`The memory text (at most ${MEMORY_MAX} characters).`);
const collectionId = z.number().int().min(1).optional().describe('A collection id (see list_collections); omitted: the default collection.');

/** What a tool-using model needs to know about an agent to pick and call it. */
export const agentSummary = (a: Agent) => ({
  id: a.id,
  slug: a.slug,
  title: a.title,
  type: a.type,
  description: a.description,
  questions: a.questions.filter((q) => q.name !== 'messages').map((q) => ({ name: q.name, type: q.type, required: q.required, ...(q.options ? { options: q.options } : {}) })),
});

/** Runs a tool body with the caller's errors turned into readable tool errors. */
function guard<A>(ctx: ToolContext, name: string, fn: (args: A) => Promise<CallToolResult> | CallToolResult) {
  return async (args: A): Promise<CallToolResult> => {
    try {
      return await fn(args);
    } catch (err) {
      return errorResult(err, ctx.platform.log, name);
    }
  };
}

/** Agents, memories and collections: tools that need nothing but the core services. */
export function registerCoreTools(server: McpServer, ctx: ToolContext): void {
  const { agents, memories, collections } = ctx.platform.services;
  const userId = ctx.principal.userId;

  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description: 'Lists the Agent Desk agents you can run (id, slug, title, type, the questions they accept). Pass an id or slug to run_agent.',
      inputSchema: { q: z.string().max(500).optional().describe('Case-insensitive search in title and descriptions.'), page, per_page: perPage(100, 50) },
      annotations: { readOnlyHint: true },
    },
    guard(ctx, 'list_agents', (a: { q?: string; page?: number; per_page?: number }) => {
      const res = agents.list(userId, { q: a.q, page: a.page ?? 1, per_page: a.per_page ?? 50 });
      return jsonResult({ agents: res.items.map(agentSummary), page: res.page, total: res.total });
    }),
  );

  server.registerTool(
    'search_memories',
    {
      title: 'Search memories',
      description: 'Full-text search of your memories, best match first; without a query, lists them newest first.',
      inputSchema: { query: z.string().max(500).optional().describe('Words to look for.'), collection_id: collectionId.describe('Only this collection.'), page, per_page: perPage(50, 10) },
      annotations: { readOnlyHint: true },
    },
    guard(ctx, 'search_memories', (a: { query?: string; collection_id?: number; page?: number; per_page?: number }) => {
      const res = memories.list(userId, { q: a.query, collection_id: a.collection_id, page: a.page ?? 1, per_page: a.per_page ?? 10 });
      return jsonResult({ memories: res.items, page: res.page, total: res.total });
    }),
  );

  server.registerTool(
    'create_memory',
    {
      title: 'Create a memory',
      description: 'Stores a memory (a text note) that Agent Desk agents will use as context.',
      inputSchema: { memory: memoryText, collection_id: collectionId },
    },
    guard(ctx, 'create_memory', (a: { memory: string; collection_id?: number }) => jsonResult({ memory: memories.create(userId, a) })),
  );

  server.registerTool(
    'update_memory',
    {
      title: 'Update a memory',
      description: "Replaces a memory's text, and optionally moves it to another collection.",
      inputSchema: { id: z.number().int().min(1).describe('The memory id.'), memory: memoryText, collection_id: z.number().int().min(1).optional().describe('Move it to this collection.') },
      annotations: { idempotentHint: true },
    },
    guard(ctx, 'update_memory', (a: { id: number; memory: string; collection_id?: number }) =>
      jsonResult({ memory: memories.update(userId, String(a.id), { memory: a.memory, collection_id: a.collection_id }) }),
    ),
  );

  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description: 'Deletes a memory for good.',
      inputSchema: { id: z.number().int().min(1).describe('The memory id.') },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    guard(ctx, 'delete_memory', (a: { id: number }) => {
      memories.delete(userId, String(a.id));
      return jsonResult({ id: a.id, deleted: true });
    }),
  );

  server.registerTool(
    'list_collections',
    {
      title: 'List memory collections',
      description: 'Lists your memory collections, newest first. Each is also a resource: collection://{id}.',
      inputSchema: { search: z.string().max(255).optional().describe('Case-insensitive search in the name.'), page, per_page: perPage(50, 50) },
      annotations: { readOnlyHint: true },
    },
    guard(ctx, 'list_collections', (a: { search?: string; page?: number; per_page?: number }) => {
      const res = collections.list(userId, { search: a.search, page: a.page ?? 1, per_page: a.per_page ?? 50 });
      return jsonResult({ collections: res.items, page: res.page, total: res.total });
    }),
  );
}
