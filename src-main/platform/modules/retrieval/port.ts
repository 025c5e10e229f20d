import type { PassageSources } from '../../engine/passages.js';

/** What executions use of retrieval: hybrid passages, whole small files, memories, a conversation's attachments. */
export interface ExecutionRetrieval extends Required<PassageSources> {
  memories(userId: number, text: string, limit: number, collections?: number[] | null): Promise<{ id: number; memory: string }[]>;
  conversationFileIds(rootId: number, userId: number): number[];
}
