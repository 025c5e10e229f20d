import { createRoute } from '@hono/zod-openapi';
import type { SchedulesService } from './service.js';
import { createRouter, errorResponses, notFound, ok, jsonBodyOf } from '../../transports/http/router.js';
import { Schedule, ScheduleCreate, ScheduleDeleted, ScheduleListQuery, SchedulePage, ScheduleRunPage, ScheduleUpdate } from '../../contract/schedules.js';
import { IdPath, pageQuery } from '../../contract/common.js';
import { shapeB } from '../../transports/http/pagination.js';

const RunsQuery = pageQuery({ maxPerPage: 100, defaultPerPage: 15 });

/** ext: agents that run on a schedule (CONTRACT.md "Tools and schedules"). */
export function scheduleRoutes({ schedules }: { schedules: SchedulesService }) {
  const r = createRouter();
  const tags = ['Schedules'];

  r.openapi(
    createRoute({ method: 'get', path: '/schedules', tags, summary: 'List schedules (ext), newest first', request: { query: ScheduleListQuery }, responses: { ...ok(SchedulePage), ...errorResponses } }),
    (c) => c.json(shapeB(c, schedules.list(c.get('principal').userId, c.req.valid('query'))), 200),
  );

  r.openapi(
    createRoute({
      method: 'post',
      path: '/schedules',
      tags,
      summary: 'Run an agent on a schedule (ext): a cron expression in a time zone, or every N minutes',
      request: jsonBodyOf(ScheduleCreate),
      responses: { 201: { content: { 'application/json': { schema: Schedule } }, description: 'Created' }, ...errorResponses },
    }),
    (c) => c.json(schedules.create(c.get('principal').userId, c.req.valid('json')), 201),
  );

  r.openapi(
    createRoute({ method: 'get', path: '/schedules/{id}', tags, summary: 'A schedule (ext)', request: { params: IdPath }, responses: { ...ok(Schedule), ...notFound('Schedule'), ...errorResponses } }),
    (c) => c.json(schedules.get(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'patch',
      path: '/schedules/{id}',
      tags,
      summary: 'Change a schedule (ext); `enabled: false` pauses it, and resuming starts from now (no catching up)',
      request: { params: IdPath, ...jsonBodyOf(ScheduleUpdate) },
      responses: { ...ok(Schedule), ...notFound('Schedule'), ...errorResponses },
    }),
    (c) => c.json(schedules.update(c.get('principal').userId, c.req.valid('param').id, c.req.valid('json')), 200),
  );

  r.openapi(
    createRoute({ method: 'delete', path: '/schedules/{id}', tags, summary: 'Delete a schedule (ext); its past executions stay', request: { params: IdPath }, responses: { ...ok(ScheduleDeleted), ...notFound('Schedule'), ...errorResponses } }),
    (c) => c.json(schedules.delete(c.get('principal').userId, c.req.valid('param').id), 200),
  );

  r.openapi(
    createRoute({
      method: 'get',
      path: '/schedules/{id}/runs',
      tags,
      summary: "A schedule's runs (ext), newest first: each with its execution, or why it could not start",
      request: { params: IdPath, query: RunsQuery },
      responses: { ...ok(ScheduleRunPage), ...notFound('Schedule'), ...errorResponses },
    }),
    (c) => c.json(shapeB(c, schedules.runs(c.get('principal').userId, c.req.valid('param').id, c.req.valid('query'))), 200),
  );

  return r;
}
