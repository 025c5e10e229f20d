import { z } from 'zod';
import { IdPath } from './common.js';
import { operations } from './operation.js';

export const ApiKey = z
  .object({ id: z.number().int(), name: z.string(), prefix: z.string(), created_at: z.string(), last_used_at: z.string().nullable(), revoked_at: z.string().nullable() })
  .meta({ id: 'ApiKey' });
export const ApiKeyCreate = z.object({ name: z.string().trim().min(1).max(100) });
export const ApiKeyCreated = ApiKey.extend({ key: z.string() });
export const ApiKeyList = z.object({ data: z.array(ApiKey) });

/** The header hosted clients use to choose a workspace (modules/access/workspace.ts reads it). */
export const WorkspaceHeader = z.object({ 'x-workspace-id': z.string().optional() });

const tags = ['API keys'] as const;

/** ext: API key management for the app's Settings (modules/access/routes.ts handles them); the key itself is shown once. */
export const keyOperations = operations({
  listKeys: { method: 'get', path: '/keys', tags, summary: 'List API keys (ext)', response: ApiKeyList },
  createKey: { method: 'post', path: '/keys', tags, summary: 'Create an API key (ext)', body: ApiKeyCreate, response: ApiKeyCreated, status: 201, okDescription: 'Created; `key` is shown only now' },
  revokeKey: { method: 'delete', path: '/keys/{id}', tags, summary: 'Revoke an API key (ext)', params: IdPath, response: ApiKey, notFound: 'API key' },
});
