import { z } from 'zod';
import { httpUrl, IdPath } from './common.js';
import { Agent } from './agents.js';
import { operations } from './operation.js';
import { say } from './messages.js';

const baseUrl = httpUrl(say.must('base url', 'be a valid http or https URL without credentials'), { credentials: false });

/** ext: the optional remote platform connection. The key is write-only. */
export const RemoteSettings = z
  .object({
    base_url: z.string().nullable(),
    has_api_key: z.boolean(),
    /** `unconfigured`, `online` (last call worked) or `offline` (last call failed; cached agents stay readable). */
    status: z.enum(['unconfigured', 'online', 'offline']),
    last_sync_at: z.string().nullable(),
    last_error: z.string().nullable(),
    agent_count: z.number().int(),
    /** Whether the key is encrypted at rest (the desktop app's safeStorage). */
    key_encrypted: z.boolean(),
  })
  .meta({ id: 'RemoteSettings' });
export type RemoteSettings = z.infer<typeof RemoteSettings>;

export const RemoteSettingsUpdate = z
  .object({
    base_url: baseUrl.nullable().optional(),
    /** A new key; `null` removes it; omitted keeps the stored one. */
    api_key: z.string().trim().min(1).max(1000).nullable().optional(),
  })
  .meta({ id: 'RemoteSettingsUpdate' });

export const RemoteTestResult = z
  .object({ reachable: z.boolean(), agent_count: z.number().int().nullable(), latency_ms: z.number().nullable(), error: z.string().nullable() })
  .meta({ id: 'RemoteTestResult' });
export type RemoteTestResult = z.infer<typeof RemoteTestResult>;

export const RemoteSyncResult = z
  .object({ synced: z.number().int(), removed: z.number().int(), settings: RemoteSettings })
  .meta({ id: 'RemoteSyncResult' });

const tags = ['Remote platform'] as const;

/** ext: the optional remote platform, Settings → Remote (modules/remote/routes.ts handles them). */
export const remoteOperations = operations({
  getRemoteSettings: { method: 'get', path: '/settings/remote', tags, summary: 'The remote platform connection (ext); the key is never shown', response: RemoteSettings },
  updateRemoteSettings: {
    method: 'put',
    path: '/settings/remote',
    tags,
    summary: 'Set the remote base URL and key (ext); refreshes its agents when reachable',
    body: RemoteSettingsUpdate,
    response: RemoteSettings,
  },
  testRemote: { method: 'post', path: '/settings/remote/test', tags, summary: "Test the connection: reachability and the remote's agent count (ext)", response: RemoteTestResult },
  syncRemote: {
    method: 'post',
    path: '/remote/sync',
    tags,
    summary: "Refresh the cached list of the remote's agents (ext)",
    response: RemoteSyncResult,
    errors: { 502: ['The remote could not be reached', RemoteSettings.pick({ last_error: true })] },
  },
  importRemoteAgent: {
    method: 'post',
    path: '/agents/{id}/import',
    tags,
    summary: 'Copy a remote agent into a new local agent (ext)',
    params: IdPath,
    response: Agent,
    status: 201,
    okDescription: 'The new local agent',
    notFound: 'Agent',
  },
});
