import type { MemoriesService } from './service.js';
import type { CollectionsService } from './collections.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { memoryOperations } from '../../contract/memories.js';
import { shapeC } from '../../transports/http/pagination.js';

export function memoryRoutes({ memories, collections }: { memories: MemoriesService; collections: CollectionsService }) {
  const r = createRouter();
  serveOperations(r, memoryOperations, {
    listMemories: ({ userId, query }) => shapeC('Memories fetched successfully!', 'memories', memories.list(userId, query)),
    createMemory: ({ userId, body }) => ({ message: 'Memory created successfully!', memory: memories.create(userId, body) }),
    updateMemory: ({ userId, params, body }) => ({ message: 'Memory updated successfully!', memory: memories.update(userId, params.memoryId, body) }),
    deleteMemory: ({ userId, params }) => {
      memories.delete(userId, params.memoryId);
      return { message: 'Memory deleted successfully!' };
    },
    listCollections: ({ userId, query }) => shapeC('success', 'collections', collections.list(userId, query)),
    createCollection: ({ userId, body }) => {
      const col = collections.create(userId, body.name);
      return { message: 'Collection created successfully', collection: { user_id: col.user_id, name: col.name, id: col.id } };
    },
    renameCollection: ({ userId, params, body }) => ({ message: 'Collection updated successfully', collection: collections.rename(userId, params.collectionId, body.name, body.in_context) }),
    deleteCollection: ({ userId, params }) => {
      collections.delete(userId, params.collectionId);
      return { message: 'Collection deleted successfully' };
    },
  });
  return r;
}
