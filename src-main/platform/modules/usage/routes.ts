import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { usageOperations } from '../../contract/usage.js';
import { requestWorkspace } from '../access/workspace.js';
import type { UsersService } from '../access/users.js';
import type { UsageService } from './service.js';

/** ext: the Usage screen's operations, `GET /api/usage` and `GET /api/workspaces/usage` (and `/workspaces/usage`, as hosted clients call it). */
export function usageRoutes({ usage, users }: { usage: UsageService; users: UsersService }) {
  const r = createRouter();
  serveOperations(r, usageOperations, {
    getUsage: ({ userId, query }) => usage.perDay(userId, query.days),
    getWorkspaceUsage: ({ userId, query }, c) => {
      const caller = { userId, workspaceId: requestWorkspace(users, c), selectedWorkspaceId: users.resolveWorkspace(userId, undefined) };
      return usage.report(caller, query);
    },
  });
  return r;
}
