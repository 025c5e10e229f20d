import { z } from 'zod';
import { pageQuery, queryInt, ShapeCMeta } from './common.js';
import { operations } from './operation.js';

export const MEMORY_MAX = 32000;

export const Memory = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    collection_id: z.number().int(),
    memory: z.string(),
    credits: z.number(),
  })
  .meta({ id: 'Memory' });
export type Memory = z.infer<typeof Memory>;

export const Collection = z.object({ id: z.number().int(), user_id: z.number().int(), name: z.string() }).meta({ id: 'Collection' });
export type Collection = z.infer<typeof Collection>;
/**
 * Listed with ext `display_name` and `in_context`: whether the collection's memories enter a run that
 * names no `memory_collections` (false for one an archive brought, until the person turns it on).
 */
export const CollectionListed = Collection.extend({ display_name: z.string(), in_context: z.boolean() }).meta({ id: 'CollectionListed' });

export const MemoryListQuery = pageQuery({ maxPerPage: 50, defaultPerPage: 10 }).extend({
  collection_id: queryInt().pipe(z.number().int().min(1)).optional(),
  /** ext: full-text search. */
  q: z.string().max(500).optional(),
});
export const MemoryList = z.object({ message: z.string(), memories: z.array(Memory), meta: ShapeCMeta });

const collectionId = z.number().int().min(1).nullable().optional();
export const MemoryCreate = z.object({ memory: z.string().min(1).max(MEMORY_MAX), collection_id: collectionId }).meta({ id: 'MemoryCreate' });
export const MemoryUpdate = MemoryCreate.meta({ id: 'MemoryUpdate' });
export const MemoryCreated = z.object({ message: z.string(), memory: Memory });
export const MemoryUpdated = z.object({ message: z.string(), memory: Memory.extend({ collection: Collection }) });
export const MessageOnly = z.object({ message: z.string() });

export const CollectionListQuery = pageQuery({ maxPerPage: 50, defaultPerPage: 10 }).extend({ search: z.string().max(255).optional() });
export const CollectionList = z.object({ message: z.string(), collections: z.array(CollectionListed), meta: ShapeCMeta });
export const CollectionBody = z.object({ name: z.string().trim().min(1).max(255) }).meta({ id: 'CollectionBody' });
/** The rename body; ext `in_context` turns a collection's memories on or off for runs that name none. */
export const CollectionUpdate = CollectionBody.extend({ in_context: z.boolean().optional() }).meta({ id: 'CollectionUpdate' });
export const CollectionSaved = z.object({ message: z.string(), collection: Collection });

const MemoryPath = z.object({ memoryId: z.string() });
const CollectionPath = z.object({ collectionId: z.string() });
const tags = ['Memories'] as const;
const ctags = ['Memory collections'] as const;

/** The memories and collections operations (modules/memories/routes.ts handles them). */
export const memoryOperations = operations({
  listMemories: {
    method: 'get',
    path: '/memories',
    tags,
    summary: "List the caller's memories, newest first",
    query: MemoryListQuery,
    response: MemoryList,
    mcp: { tool: 'search_memories', title: 'Search memories', description: 'Full-text search of your memories, best match first; without a query, lists them newest first.', args: { query: 'q' } },
  },
  createMemory: {
    method: 'post',
    path: '/memories',
    tags,
    summary: 'Create a memory',
    body: MemoryCreate,
    response: MemoryCreated,
    mcp: { tool: 'create_memory', title: 'Create a memory', description: 'Stores a memory (a text note) that Agent Desk agents will use as context.' },
  },
  updateMemory: {
    method: 'patch',
    path: '/memories/{memoryId}',
    tags,
    summary: 'Update a memory',
    params: MemoryPath,
    body: MemoryUpdate,
    response: MemoryUpdated,
    notFound: 'Memory',
    mcp: { tool: 'update_memory', title: 'Update a memory', description: "Replaces a memory's text, and optionally moves it to another collection.", args: { id: 'memoryId' } },
  },
  deleteMemory: {
    method: 'delete',
    path: '/memories/{memoryId}',
    tags,
    summary: 'Delete a memory',
    params: MemoryPath,
    response: MessageOnly,
    notFound: 'Memory',
    mcp: { tool: 'delete_memory', title: 'Delete a memory', description: 'Deletes a memory for good.', args: { id: 'memoryId' } },
  },
  listCollections: {
    method: 'get',
    path: '/memory-collections',
    tags: ctags,
    summary: 'List collections',
    query: CollectionListQuery,
    response: CollectionList,
    mcp: { tool: 'list_collections', title: 'List memory collections', description: 'Lists your memory collections, newest first. Each is also a resource: collection://{id}.' },
  },
  createCollection: { method: 'post', path: '/memory-collections', tags: ctags, summary: 'Create a collection', body: CollectionBody, response: CollectionSaved },
  renameCollection: { method: 'put', path: '/memory-collections/{collectionId}', tags: ctags, summary: 'Rename a collection (ext: turn its memories on or off for runs that name no collections)', params: CollectionPath, body: CollectionUpdate, response: CollectionSaved, notFound: 'Collection' },
  deleteCollection: {
    method: 'delete',
    path: '/memory-collections/{collectionId}',
    tags: ctags,
    summary: 'Delete a collection (ext); its memories move to the default collection',
    params: CollectionPath,
    response: MessageOnly,
    notFound: 'Collection',
  },
});
