import type { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { usageOperations } from '../../contract/usage.js';
import { requestWorkspace } from '../access/workspace.js';
import type { UsersService } from '../access/users.js';
import type { UsageReport } from './usage-report.js';

/** ext `GET /api/workspaces/usage` (and `/workspaces/usage`, as hosted clients call it). */
export function usageReportRoute(r: ReturnType<typeof createRouter>, report: UsageReport, users: UsersService): void {
  serveOperations(r, usageOperations, {
    getWorkspaceUsage: ({ userId, query }, c) => {
      const caller = { userId, workspaceId: requestWorkspace(users, c), selectedWorkspaceId: users.resolveWorkspace(userId, undefined) };
      return report.report(caller, query);
    },
  });
}
