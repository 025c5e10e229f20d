import { createRoute } from '@hono/zod-openapi';
import type { RemoteService } from './service.js';
import type { UsersService } from '../access/users.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { RemoteSettings, RemoteSettingsUpdate, RemoteSyncResult, RemoteTestResult } from '../../contract/remote.js';
import { Agent } from '../../contract/agents.js';
import { IdPath } from '../../contract/common.js';
import { requestWorkspace } from '../access/workspace.js';

/** ext: the optional remote platform (Settings → Remote). */
export function remoteRoutes({ remote, users }: { remote: RemoteService; users: UsersService }) {
  const r = createRouter();
  const tags = ['Remote platform'];

  r.openapi(
    createRoute({ method: 'get', path: '/settings/remote', tags, summary: 'The remote platform connection (ext); the key is never shown', responses: { ...ok(RemoteSettings), ...errorResponses } }),
    (c) => c.json(remote.view(), 200),
  );
  r.openapi(
    createRoute({ method: 'put', path: '/settings/remote', tags, summary: 'Set the remote base URL and key (ext); refreshes its agents when reachable', request: jsonBodyOf(RemoteSettingsUpdate), responses: { ...ok(RemoteSettings), ...errorResponses } }),
    async (c) => {
      const view = remote.update(c.req.valid('json'));
      if (view.status !== 'unconfigured') await remote.sync().catch(() => {}); // offline is shown in the answer, not an error
      return c.json(remote.view(), 200);
    },
  );
  r.openapi(
    createRoute({ method: 'post', path: '/settings/remote/test', tags, summary: "Test the connection: reachability and the remote's agent count (ext)", responses: { ...ok(RemoteTestResult), ...errorResponses } }),
    async (c) => c.json(await remote.test(), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/remote/sync',
      tags,
      summary: "Refresh the cached list of the remote's agents (ext)",
      responses: { ...ok(RemoteSyncResult), 502: { content: { 'application/json': { schema: RemoteSettings.pick({ last_error: true }) } }, description: 'The remote could not be reached' }, ...errorResponses },
    }),
    async (c) => c.json(await remote.sync(), 200),
  );
  r.openapi(
    createRoute({
      method: 'post',
      path: '/agents/{id}/import',
      tags,
      summary: 'Copy a remote agent into a new local agent (ext)',
      request: { params: IdPath },
      responses: { 201: { content: { 'application/json': { schema: Agent } }, description: 'The new local agent' }, ...notFound('Agent'), ...errorResponses },
    }),
    (c) => {
      const { userId } = c.get('principal');
      const ws = requestWorkspace(users, c);
      return c.json(remote.importAgent(userId, ws, c.req.valid('param').id), 201);
    },
  );
  return r;
}
