import type { SchedulesService } from './service.js';
import { createRouter } from '../../transports/http/router.js';
import { serveOperations } from '../../transports/http/operations.js';
import { scheduleOperations } from '../../contract/schedules.js';
import { shapeB } from '../../transports/http/pagination.js';

/** ext: agents that run on a schedule (CONTRACT.md "Tools and schedules"). */
export function scheduleRoutes({ schedules }: { schedules: SchedulesService }) {
  const r = createRouter();
  serveOperations(r, scheduleOperations, {
    listSchedules: ({ userId, query }, c) => shapeB(c, schedules.list(userId, query)),
    createSchedule: ({ userId, body }) => schedules.create(userId, body),
    getSchedule: ({ userId, params }) => schedules.get(userId, params.id),
    updateSchedule: ({ userId, params, body }) => schedules.update(userId, params.id, body),
    deleteSchedule: ({ userId, params }) => schedules.delete(userId, params.id),
    listScheduleRuns: ({ userId, params, query }, c) => shapeB(c, schedules.runs(userId, params.id, query)),
  });
  return r;
}
