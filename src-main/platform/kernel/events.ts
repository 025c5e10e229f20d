import { EventEmitter } from 'node:events';
import type { Execution } from '../contract/executions.js';
import type { z } from 'zod';
import type { LocalhostSettings } from '../contract/app-settings.js';

/** Emitted inside the transaction that records an execution's end; listeners write synchronously. */
export interface ExecutionFinished {
  type: 'execution.succeeded' | 'execution.failed';
  userId: number;
  agentId: number;
  /** The `GET /api/agent-responses/{id}` object, with `input`. */
  execution: Execution;
}

export interface CreditsConsumed {
  source: 'file';
  id: number;
  workspaceId: number;
  credits: number;
}

/** Every event that passes between modules, with its arguments: a typo is a compile error. */
export interface PlatformEventMap {
  'execution.finished': [ExecutionFinished];
  /** A file left `waiting`/`in_progress` (processed, failed or deleted). */
  'file.settled': [fileId: number];
  /** A processed file's passages all have vectors from the current embedder, or embedding them failed. */
  'file.vectors': [fileId: number];
  'credits.consumed': [CreditsConsumed];
  /** A memory was created or its text changed (retrieval embeds it). */
  'memory.saved': [memoryId: number];
  /** The localhost API settings changed: the desktop shell re-listens. */
  'settings.localhost': [z.infer<typeof LocalhostSettings>];
}

export const LOCALHOST_SETTINGS_EVENT = 'settings.localhost';

export class PlatformEvents extends EventEmitter<PlatformEventMap> {}
