import { createRoute } from '@hono/zod-openapi';
import type { MemoriesService } from './service.js';
import type { CollectionsService } from './collections.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import {
  CollectionBody, CollectionList, CollectionListQuery, CollectionSaved, MemoryCreate, MemoryCreated, MemoryList, MemoryListQuery,
  MemoryUpdate, MemoryUpdated, MessageOnly,
} from '../../contract/memories.js';
import { z } from 'zod';
import { shapeC } from '../../transports/http/pagination.js';

const MemoryPath = z.object({ memoryId: z.string() });
const CollectionPath = z.object({ collectionId: z.string() });

export function memoryRoutes({ memories, collections }: { memories: MemoriesService; collections: CollectionsService }) {
  const r = createRouter();
  const tags = ['Memories'];

  r.openapi(
    createRoute({ method: 'get', path: '/memories', tags, summary: "List the caller's memories, newest first", request: { query: MemoryListQuery }, responses: { ...ok(MemoryList), ...errorResponses } }),
    (c) => c.json(shapeC('Memories fetched successfully!', 'memories', memories.list(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/memories', tags, summary: 'Create a memory', request: jsonBodyOf(MemoryCreate), responses: { ...ok(MemoryCreated), ...errorResponses } }),
    (c) => c.json({ message: 'Memory created successfully!', memory: memories.create(c.get('principal').userId, c.req.valid('json')) }, 200),
  );

  r.openapi(
    createRoute({ method: 'patch', path: '/memories/{memoryId}', tags, summary: 'Update a memory', request: { params: MemoryPath, ...jsonBodyOf(MemoryUpdate) }, responses: { ...ok(MemoryUpdated), ...notFound('Memory'), ...errorResponses } }),
    (c) => c.json({ message: 'Memory updated successfully!', memory: memories.update(c.get('principal').userId, c.req.valid('param').memoryId, c.req.valid('json')) }, 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/memories/{memoryId}', tags, summary: 'Delete a memory', request: { params: MemoryPath }, responses: { ...ok(MessageOnly), ...notFound('Memory'), ...errorResponses } }),
    (c) => {
      memories.delete(c.get('principal').userId, c.req.valid('param').memoryId);
      return c.json({ message: 'Memory deleted successfully!' }, 200);
    },
  );

  const ctags = ['Memory collections'];
  r.openapi(
    createRoute({ method: 'get', path: '/memory-collections', tags: ctags, summary: 'List collections', request: { query: CollectionListQuery }, responses: { ...ok(CollectionList), ...errorResponses } }),
    (c) => c.json(shapeC('success', 'collections', collections.list(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({ method: 'post', path: '/memory-collections', tags: ctags, summary: 'Create a collection', request: jsonBodyOf(CollectionBody), responses: { ...ok(CollectionSaved), ...errorResponses } }),
    (c) => {
      const col = collections.create(c.get('principal').userId, c.req.valid('json').name);
      return c.json({ message: 'Collection created successfully', collection: { user_id: col.user_id, name: col.name, id: col.id } }, 200);
    },
  );

  r.openapi(
    createRoute({ method: 'put', path: '/memory-collections/{collectionId}', tags: ctags, summary: 'Rename a collection', request: { params: CollectionPath, ...jsonBodyOf(CollectionBody) }, responses: { ...ok(CollectionSaved), ...notFound('Collection'), ...errorResponses } }),
    (c) => c.json({ message: 'Collection updated successfully', collection: collections.rename(c.get('principal').userId, c.req.valid('param').collectionId, c.req.valid('json').name) }, 200),
  );

  r.openapi(
    createRoute({
      method: 'delete',
      path: '/memory-collections/{collectionId}',
      tags: ctags,
      summary: 'Delete a collection (ext); its memories move to the default collection',
      request: { params: CollectionPath },
      responses: { ...ok(MessageOnly), ...notFound('Collection'), ...errorResponses },
    }),
    (c) => {
      collections.delete(c.get('principal').userId, c.req.valid('param').collectionId);
      return c.json({ message: 'Collection deleted successfully' }, 200);
    },
  );

  return r;
}
