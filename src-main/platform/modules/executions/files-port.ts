import type { ExecutionFiles } from './service.js';

/** The files service as executions see it (kept structural so either side can evolve). */
interface FilesLike {
  row(userId: number, id: number): unknown;
  searchPassages(fileIds: number[], query: string, limit?: number): { file_id: number; filename?: string | null; text: string }[];
  linkedFileIds(agentId: number): number[];
  createFromBuffer(workspaceId: number, filename: string, bytes: Buffer, opts?: { userId?: number }): { id: number; filename: string };
}

export function executionFiles(files: FilesLike): ExecutionFiles {
  return {
    exists(userId, id) {
      try {
        files.row(userId, id);
        return true;
      } catch {
        return false;
      }
    },
    searchPassages: (ids, query, limit) => files.searchPassages(ids, query, limit),
    linkedFileIds: (agentId) => files.linkedFileIds(agentId),
    createFromBuffer: (ws, name, bytes, opts) => files.createFromBuffer(ws, name, bytes, opts),
  };
}
