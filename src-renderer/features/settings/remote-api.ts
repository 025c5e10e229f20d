import type { z } from 'zod';
import { Agent } from '../../../src-main/platform/contract/agents';
import { RemoteSettings, RemoteSyncResult, RemoteTestResult } from '../../../src-main/platform/contract/remote';
import { bridgeTransport } from '../../api/bridge-transport';
import { httpTransport } from '../../api/http-transport';
import { ApiError, errorFrom } from '../../api/errors';

// The remote routes live beside the shared client (src-renderer/api/client.ts belongs to another
// workstream); same transports, same contract parsing, same ApiError, so callers see no difference.
const transport = typeof window !== 'undefined' && window.agentDesk ? bridgeTransport(window.agentDesk) : httpTransport();

async function call<S extends z.ZodType>(schema: S, method: string, path: string, body?: unknown): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await transport.request({ method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status < 200 || res.status >= 300) throw errorFrom(res.status, res.text);
  let json: unknown;
  try {
    json = res.text ? JSON.parse(res.text) : undefined;
  } catch {
    throw new ApiError(res.status, 'The platform answered with something that is not JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiError(res.status, `Unexpected answer from the platform: ${parsed.error.issues[0]?.message ?? 'invalid shape'} at ${parsed.error.issues[0]?.path.join('.') ?? ''}.`);
  return parsed.data;
}

export const remoteApi = {
  settings: () => call(RemoteSettings, 'GET', '/api/settings/remote'),
  /** `api_key` omitted keeps the stored key, `null` removes it; the platform syncs the agents when it can. */
  save: (body: { base_url?: string | null; api_key?: string | null }) => call(RemoteSettings, 'PUT', '/api/settings/remote', body),
  test: () => call(RemoteTestResult, 'POST', '/api/settings/remote/test'),
  /** 502 with the reason when the remote cannot be reached; the cached agents stay. */
  sync: () => call(RemoteSyncResult, 'POST', '/api/remote/sync'),
  /** Copies a remote agent into a new local one. */
  importAgent: (id: number) => call(Agent, 'POST', `/api/agents/${id}/import`),
};

export type { RemoteSettings, RemoteTestResult };

/** Execution error codes that mean "look at Settings → Remote". */
export const REMOTE_ERROR_CODES = ['remote_unauthorized', 'remote_unreachable', 'remote_timeout', 'remote_error', 'remote_unconfigured', 'remote_key_unreadable'] as const;
export const isRemoteErrorCode = (code: string | undefined | null): boolean => !!code && (REMOTE_ERROR_CODES as readonly string[]).includes(code);
