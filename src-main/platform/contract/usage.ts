import { z } from 'zod';
import { AGENT_TYPES } from './agents.js';
import { pageQuery, queryInt } from './common.js';
import { WorkspaceHeader } from './keys.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/**
 * ext: the Usage screen's numbers. `GET /api/usage`, credits per day of the app's own; and
 * `GET /api/workspaces/usage` (CONTRACT.md "Usage (ext)"), as the hosted platform documents it.
 */

export const UsageQuery = z.object({
  days: queryInt().pipe(z.number().int().min(1).max(366)).optional().default(30),
});

export const UsageDay = z.object({
  date: z.string(),
  executions: z.number().int(),
  execution_credits: z.number(),
  files: z.number().int(),
  file_credits: z.number(),
  credits: z.number(),
});
export type UsageDay = z.infer<typeof UsageDay>;

export const Usage = z
  .object({
    days: z.number().int(),
    from: z.string(),
    to: z.string(),
    total_credits: z.number(),
    executions: z.number().int(),
    files: z.number().int(),
    data: z.array(UsageDay),
    /** The one credits formula, so the app can show how numbers come about. */
    formula: z.object({ executionBase: z.number(), per1kInputTokens: z.number(), per1kOutputTokens: z.number(), fileBase: z.number(), perMiB: z.number() }),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;


export const USAGE_RANGES = ['1d', '7d', '30d'] as const;
/** The longest period `start_date`..`end_date` may span, both days counted. */
export const USAGE_MAX_DAYS = 90;

const day = (field: string) => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, say.must(field, 'be a date like 2026-01-31 (YYYY-MM-DD)'));

export const WorkspaceUsageQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({
  /** The last day, the last 7 or the last 30 (UTC days, today included); `start_date`/`end_date` win when given. */
  range: z.enum(USAGE_RANGES).optional(),
  start_date: day('start date').optional(),
  end_date: day('end date').optional(),
  /** `all` or an agent type. */
  type: z.enum(['all', ...AGENT_TYPES]).optional().default('all'),
  /** Only this user's executions. */
  user_id: queryInt().pipe(z.number().int().min(1)).optional(),
});
export type WorkspaceUsageQuery = z.infer<typeof WorkspaceUsageQuery>;

export const WorkspaceUsageRow = z.object({
  /** UTC day the executions started, `YYYY-MM-DD`. */
  date: z.string(),
  agent_id: z.number().int(),
  /** null when the agent has been deleted since. */
  agent_title: z.string().nullable(),
  /** The model that ran; null when none was reached (e.g. no model configured). */
  model: z.string().nullable(),
  executions: z.number().int(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  credits: z.number(),
});
export type WorkspaceUsageRow = z.infer<typeof WorkspaceUsageRow>;

export const WorkspaceUsageTotals = z.object({
  executions: z.number().int(),
  tokens_in: z.number().int(),
  tokens_out: z.number().int(),
  credits: z.number(),
});

export const WorkspaceUsage = z
  .object({ data: z.array(WorkspaceUsageRow), totals: WorkspaceUsageTotals, has_more: z.boolean() })
  .meta({ id: 'WorkspaceUsage' });
export type WorkspaceUsage = z.infer<typeof WorkspaceUsage>;

/** ext: the Usage screen's operations (modules/usage/routes.ts handles them; hosted clients also call `/workspaces/usage` without `/api`). */
export const usageOperations = operations({
  getUsage: { method: 'get', path: '/usage', tags: ['App'], summary: 'Credits per day (ext)', query: UsageQuery, response: Usage },
  getWorkspaceUsage: {
    method: 'get',
    path: '/workspaces/usage',
    tags: ['App'],
    summary: 'Usage per day, agent and model (ext)',
    description:
      'Executions, tokens and credits of the workspace, one row per UTC day, agent and model, newest first. `range` 1d|7d|30d (default 7d), or `start_date` and `end_date` (YYYY-MM-DD, at most 90 days, these win over `range`).',
    query: WorkspaceUsageQuery,
    headers: WorkspaceHeader,
    response: WorkspaceUsage,
  },
});
