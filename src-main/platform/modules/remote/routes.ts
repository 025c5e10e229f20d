import type { RemoteService } from './service.js';
import type { UsersService } from '../access/users.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { remoteOperations } from '../../contract/remote.js';
import { requestWorkspace } from '../access/workspace.js';

/** ext: the optional remote platform (Settings → Remote). */
export function remoteRoutes({ remote, users }: { remote: RemoteService; users: UsersService }) {
  const r = createRouter();
  serveOperations(r, remoteOperations, {
    getRemoteSettings: () => remote.view(),
    updateRemoteSettings: async ({ body }) => {
      const view = remote.update(body);
      if (view.status !== 'unconfigured') await remote.sync().catch(() => {}); // offline is shown in the answer, not an error
      return remote.view();
    },
    testRemote: () => remote.test(),
    syncRemote: () => remote.sync(),
    importRemoteAgent: ({ userId, params }, c) => remote.importAgent(userId, requestWorkspace(users, c), params.id),
  });
  return r;
}
