import { createRoute, z } from '@hono/zod-openapi';
import type { createRouter } from '../../transports/http/router.js';
import { errorResponses, ok } from '../../transports/http/router.js';
import { WorkspaceUsage, WorkspaceUsageQuery } from '../../contract/usage.js';
import { requestWorkspace } from '../access/workspace.js';
import type { UsersService } from '../access/users.js';
import type { UsageReport } from './usage-report.js';

const workspaceHeader = z.object({ 'x-workspace-id': z.string().optional() });

/** ext `GET /api/workspaces/usage` (and `/workspaces/usage`, as hosted clients call it). */
export function usageReportRoute(r: ReturnType<typeof createRouter>, report: UsageReport, users: UsersService): void {
  r.openapi(
    createRoute({
      method: 'get',
      path: '/workspaces/usage',
      tags: ['App'],
      summary: 'Usage per day, agent and model (ext)',
      description:
        'Executions, tokens and credits of the workspace, one row per UTC day, agent and model, newest first. `range` 1d|7d|30d (default 7d), or `start_date` and `end_date` (YYYY-MM-DD, at most 90 days, these win over `range`).',
      request: { query: WorkspaceUsageQuery, headers: workspaceHeader },
      responses: { ...ok(WorkspaceUsage), ...errorResponses },
    }),
    (c) => {
      const userId = c.get('principal').userId;
      const caller = { userId, workspaceId: requestWorkspace(users, c), selectedWorkspaceId: users.resolveWorkspace(userId, undefined) };
      return c.json(report.report(caller, c.req.valid('query')), 200);
    },
  );
}
