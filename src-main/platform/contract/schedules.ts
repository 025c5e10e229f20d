import { z } from 'zod';
import { Cron } from 'croner';
import { ChatTurn, Execution } from './executions.js';
import { IdPath, pageQuery, shapeB } from './common.js';
import { operations } from './operation.js';
import { say } from './messages.js';

/** A time zone the runtime knows (IANA name such as `Europe/Paris`, or `UTC`). */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, say.must('timezone', 'be a valid IANA time zone (e.g. Europe/Paris)'));

/** A five-field cron expression (optionally with seconds), checked by the same parser the scheduler runs. */
export const CronExpression = z
  .string()
  .min(1)
  .max(120)
  .refine((expr) => {
    try {
      return new Cron(expr, { paused: true }).nextRun() !== null;
    } catch {
      return false;
    }
  }, say.must('cron', 'be a valid cron expression (e.g. "0 9 * * 1-5")'));

const ScheduleFields = {
  name: z.string().max(200).nullable().optional(),
  cron: CronExpression.nullable().optional(),
  every_minutes: z.number().int().min(1).max(527_040).nullable().optional(),
  timezone: TimeZone.optional(),
  /** The answers every run sends (as `POST /api/agents/{id}/execute` takes them). */
  answers: z.record(z.string(), z.unknown()).optional(),
  /** The messages every run sends (a chat agent's conversation). */
  messages: z.array(ChatTurn).max(100).optional(),
  enabled: z.boolean().optional(),
};

export const ScheduleCreate = z
  .object({ agent_id: z.union([z.number().int().positive(), z.string().regex(/^[1-9]\d*$/)]).transform(Number), ...ScheduleFields })
  .refine((s) => (s.cron == null) !== (s.every_minutes == null), { message: 'Give either cron or every_minutes, not both.', path: ['cron'] })
  .meta({ id: 'ScheduleCreate' });
export type ScheduleCreate = z.infer<typeof ScheduleCreate>;

export const ScheduleUpdate = z.object(ScheduleFields).meta({ id: 'ScheduleUpdate' });
export type ScheduleUpdate = z.infer<typeof ScheduleUpdate>;

export const Schedule = z
  .object({
    id: z.number().int(),
    agent_id: z.number().int(),
    name: z.string().nullable(),
    cron: z.string().nullable(),
    every_minutes: z.number().int().nullable(),
    timezone: z.string(),
    answers: z.record(z.string(), z.unknown()),
    messages: z.array(ChatTurn),
    enabled: z.boolean(),
    next_run_at: z.string().nullable(),
    last_run_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Schedule' });
export type Schedule = z.infer<typeof Schedule>;

/** One run: the execution it started, or why it could not start (the agent was deleted, a bad answer...). */
export const ScheduleRun = z
  .object({
    id: z.number().int(),
    schedule_id: z.number().int(),
    due_at: z.string(),
    execution_id: z.number().int().nullable(),
    error: z.string().nullable(),
    execution: Execution.nullable(),
  })
  .meta({ id: 'ScheduleRun' });
export type ScheduleRun = z.infer<typeof ScheduleRun>;

export const SchedulePage = shapeB(Schedule).meta({ id: 'SchedulePage' });
export const ScheduleRunPage = shapeB(ScheduleRun).meta({ id: 'ScheduleRunPage' });
export const ScheduleListQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 }).extend({ agent_id: z.string().regex(/^[1-9]\d*$/).transform(Number).optional() });
export const ScheduleDeleted = z.object({ id: z.number().int(), deleted: z.boolean() });
export const ScheduleRunsQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 });

const tags = ['Schedules'] as const;

/** ext: agents that run on a schedule (CONTRACT.md "Tools and schedules"; modules/schedules/routes.ts handles them). */
export const scheduleOperations = operations({
  listSchedules: { method: 'get', path: '/schedules', tags, summary: 'List schedules (ext), newest first', query: ScheduleListQuery, response: SchedulePage },
  createSchedule: {
    method: 'post',
    path: '/schedules',
    tags,
    summary: 'Run an agent on a schedule (ext): a cron expression in a time zone, or every N minutes',
    body: ScheduleCreate,
    response: Schedule,
    status: 201,
  },
  getSchedule: { method: 'get', path: '/schedules/{id}', tags, summary: 'A schedule (ext)', params: IdPath, response: Schedule, notFound: 'Schedule' },
  updateSchedule: {
    method: 'patch',
    path: '/schedules/{id}',
    tags,
    summary: 'Change a schedule (ext); `enabled: false` pauses it, and resuming starts from now (no catching up)',
    params: IdPath,
    body: ScheduleUpdate,
    response: Schedule,
    notFound: 'Schedule',
  },
  deleteSchedule: { method: 'delete', path: '/schedules/{id}', tags, summary: 'Delete a schedule (ext); its past executions stay', params: IdPath, response: ScheduleDeleted, notFound: 'Schedule' },
  listScheduleRuns: {
    method: 'get',
    path: '/schedules/{id}/runs',
    tags,
    summary: "A schedule's runs (ext), newest first: each with its execution, or why it could not start",
    params: IdPath,
    query: ScheduleRunsQuery,
    response: ScheduleRunPage,
    notFound: 'Schedule',
  },
});
