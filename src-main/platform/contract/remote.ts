import { z } from 'zod';
import { httpUrl } from './common.js';

const baseUrl = httpUrl('The base url field must be a valid http or https URL without credentials.', { credentials: false });

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
