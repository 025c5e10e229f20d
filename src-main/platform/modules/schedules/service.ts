import { Cron } from 'croner';
import type { ServiceContext } from '../../kernel/context.js';
import { offsetOf, parseId, type Page } from '../../kernel/context.js';
import { NotFoundError, PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Lifecycle } from '../../kernel/lifecycle.js';
import { isoMicros, type Clock } from '../../kernel/time.js';
import type { Job, JobQueue } from '../../jobs/queue.js';
import type { Schedule, ScheduleCreate, ScheduleRun, ScheduleUpdate } from '../../contract/schedules.js';
import { parseExecuteBody, type Execution } from '../../contract/executions.js';
import type { AgentsService } from '../agents/service.js';
import type { ExecutionsService } from '../executions/service.js';
import { SchedulesStore, type ScheduleRow, type ScheduleValues } from './store.js';
import { isArray, isObject, readStoredJson, readStoredList } from '../../kernel/stored-json.js';
import { backoffDelay } from '../../kernel/backoff.js';
import { say } from '../../contract/messages.js';

const RUN_JOB = 'schedule.run';
/** A run that could not start is tried again after 5, 10, 15 and 20 s. */
const RUN_RETRY = { waits: [5_000, 10_000, 15_000, 20_000] } as const;
/** The timer re-checks at least this often, so a changed wall clock is noticed within a minute. */
const MAX_SLEEP_MS = 60_000;

interface Timing {
  cron: string | null;
  every_minutes: number | null;
  timezone: string;
  created_at: number;
}

/**
 * The first time after `afterMs` (strictly) that a schedule fires, in ms: the cron expression in
 * its time zone, or a grid of `every_minutes` anchored at the schedule's creation.
 */
export function nextFire(t: Timing, afterMs: number): number | null {
  if (t.cron) return new Cron(t.cron, { timezone: t.timezone, paused: true }).nextRun(new Date(afterMs))?.getTime() ?? null;
  const period = (t.every_minutes ?? 0) * 60_000;
  if (period <= 0) return null;
  const anchor = Math.floor(t.created_at / 1000);
  const n = Math.max(1, Math.floor((afterMs - anchor) / period) + 1);
  return anchor + n * period;
}

/**
 * Agents run on schedules. Each due time becomes one run row and one durable job in a single
 * transaction, and the schedule's next time is computed from now, so a time missed while the app
 * was closed runs once at the next start (never a burst of every missed time). The job starts the
 * execution and records its id in the transaction that creates it: a restart loses and
 * duplicates nothing. Only the data dir's primary process ticks.
 */
export class SchedulesService {
  private readonly store: SchedulesStore;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly deps: { agents: AgentsService; executions: ExecutionsService },
    private readonly jobs: JobQueue,
    private readonly lifecycle: Lifecycle,
    private readonly clock: Clock,
  ) {
    this.store = new SchedulesStore(ctx.db);
    jobs.register<{ runId: number }>(RUN_JOB, (job) => this.startRun(job), { concurrency: 2, maxAttempts: 5, backoffMs: (n) => backoffDelay(RUN_RETRY, n - 1) });
    lifecycle.onShutdown(() => {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
    });
  }

  /** Starts ticking (the primary process only): due schedules run now, then at their times. */
  start(): void {
    if (this.lifecycle.primary) this.tick();
  }

  create(userId: number, body: ScheduleCreate): Schedule {
    this.agentOf(userId, body.agent_id);
    const now = this.clock.now();
    const timing = { cron: body.cron ?? null, every_minutes: body.every_minutes ?? null, timezone: body.timezone ?? 'UTC', created_at: now * 1000 };
    const enabled = body.enabled ?? true;
    const values: ScheduleValues = {
      name: body.name ?? null,
      ...timing,
      answers: JSON.stringify(body.answers ?? {}),
      messages: JSON.stringify(body.messages ?? []),
      enabled: enabled ? 1 : 0,
      next_run_at: enabled ? micros(nextFire(timing, now)) : null,
    };
    const id = this.store.insert(userId, body.agent_id, values, now * 1000);
    this.arm();
    return toSchedule(this.store.byId(id)!);
  }

  list(userId: number, q: { page: number; per_page: number; agent_id?: number }): Page<Schedule> {
    const { rows, total } = this.store.page(userId, q.agent_id ?? null, q.per_page, offsetOf(q.page, q.per_page));
    return { items: rows.map(toSchedule), total, page: q.page, perPage: q.per_page };
  }

  get(userId: number, rawId: string): Schedule {
    return toSchedule(this.row(userId, rawId));
  }

  update(userId: number, rawId: string, body: ScheduleUpdate): Schedule {
    const row = this.row(userId, rawId);
    const cron = body.cron !== undefined ? body.cron : body.every_minutes != null ? null : row.cron;
    const every = body.every_minutes !== undefined ? body.every_minutes : body.cron != null ? null : row.every_minutes;
    if ((cron == null) === (every == null)) throw ValidationError.field('cron', 'Give either cron or every_minutes, not both.');
    const enabled = body.enabled ?? !!row.enabled;
    const timing = { cron: cron ?? null, every_minutes: every ?? null, timezone: body.timezone ?? row.timezone, created_at: row.created_at };
    const now = this.clock.now();
    this.store.update(
      row.id,
      {
        name: body.name !== undefined ? body.name : row.name,
        ...timing,
        answers: body.answers ? JSON.stringify(body.answers) : row.answers,
        messages: body.messages ? JSON.stringify(body.messages) : row.messages,
        enabled: enabled ? 1 : 0,
        // Re-enabling or re-timing starts from now: a paused schedule does not catch up.
        next_run_at: enabled ? micros(nextFire(timing, now)) : null,
      },
      now * 1000,
    );
    this.arm();
    return toSchedule(this.store.byId(row.id)!);
  }

  delete(userId: number, rawId: string): { id: number; deleted: boolean } {
    const row = this.row(userId, rawId);
    this.store.remove(row.id);
    return { id: row.id, deleted: true };
  }

  runs(userId: number, rawId: string, q: { page: number; per_page: number }): Page<ScheduleRun> {
    const row = this.row(userId, rawId);
    const { rows, total } = this.store.runs(row.id, q.per_page, offsetOf(q.page, q.per_page));
    const items = rows.map((r) => ({
      id: r.id,
      schedule_id: r.schedule_id,
      due_at: isoMicros(r.due_at),
      execution_id: r.execution_id,
      error: r.error,
      execution: r.execution_id ? this.executionOrNull(userId, r.execution_id) : null,
    }));
    return { items, total, page: q.page, perPage: q.per_page };
  }

  /** Records every due run (once each) and queues its start; then sleeps until the next due time. */
  tick(): number {
    const nowMs = this.clock.now();
    const now = nowMs * 1000;
    let queued = 0;
    this.ctx.db.transaction(() => {
      for (const s of this.store.due(now)) {
        const runId = this.store.addRun(s.id, s.next_run_at!, now);
        this.store.advance(s.id, micros(nextFire(s, nowMs)), s.next_run_at!, now);
        if (runId !== null) {
          this.jobs.enqueue(RUN_JOB, { runId });
          queued++;
        }
      }
    })();
    this.arm();
    return queued;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed || !this.lifecycle.primary) return;
    const next = this.store.nextDue();
    if (next === null) return;
    const wait = Math.min(Math.max(Math.ceil(next / 1000 - this.clock.now()), 0), MAX_SLEEP_MS);
    this.timer = setTimeout(() => this.tick(), wait);
    this.timer.unref();
  }

  private async startRun(job: Job<{ runId: number }>): Promise<void> {
    const run = this.store.run(job.payload.runId);
    if (!run || run.execution_id !== null || run.error !== null) return;
    const s = this.store.byId(run.schedule_id);
    if (!s) return;
    const messages = readStoredJson<unknown[]>(s.messages, { column: 'schedules.messages', id: s.id }, [], isArray);
    const body = { answers: readStoredJson<Record<string, unknown>>(s.answers, { column: 'schedules.answers', id: s.id }, {}, isObject), ...(messages.length ? { messages } : {}) };
    try {
      await this.deps.executions.start({ userId: s.user_id, via: 'schedule' }, s.agent_id, parseExecuteBody(body), {
        // Written in the very transaction that inserts the execution: a crash keeps both or
        // neither, and a job retried after one finds the id above and starts nothing again.
        onCreated: (executionId) => this.store.setRunExecution(run.id, executionId),
      });
    } catch (err) {
      // A run that cannot start as configured (agent gone, an answer no longer valid) says why;
      // a shutdown leaves the job to be retried at the next start.
      if (err instanceof PlatformError && err.status !== 503) this.store.setRunError(run.id, describe(err));
      else throw err;
    }
  }

  private executionOrNull(userId: number, id: number): Execution | null {
    try {
      return this.deps.executions.get(userId, id);
    } catch {
      return null;
    }
  }

  private agentOf(userId: number, agentId: number): void {
    try {
      this.deps.agents.get(userId, agentId);
    } catch (err) {
      if (err instanceof NotFoundError) throw ValidationError.field('agent_id', say.invalid('agent id'));
      throw err;
    }
  }

  private row(userId: number, rawId: string): ScheduleRow {
    const id = parseId(rawId);
    const row = id ? this.store.mine(userId, id) : undefined;
    if (!row) throw new NotFoundError('Schedule not found');
    return row;
  }
}

const micros = (ms: number | null) => (ms === null ? null : ms * 1000);

function describe(err: PlatformError): string {
  if (err instanceof ValidationError) return [...new Set(Object.values(err.errors).flat())].join(' ');
  return err.message;
}

function toSchedule(r: ScheduleRow): Schedule {
  return {
    id: r.id,
    agent_id: r.agent_id,
    name: r.name,
    cron: r.cron,
    every_minutes: r.every_minutes,
    timezone: r.timezone,
    answers: readStoredJson<Record<string, unknown>>(r.answers, { column: 'schedules.answers', id: r.id }, {}, isObject),
    messages: readStoredList<Schedule['messages'][number]>(r.messages, { column: 'schedules.messages', id: r.id }, (m) => isObject(m) && typeof m.role === 'string'),
    enabled: !!r.enabled,
    next_run_at: r.next_run_at === null ? null : isoMicros(r.next_run_at),
    last_run_at: r.last_run_at === null ? null : isoMicros(r.last_run_at),
    created_at: isoMicros(r.created_at),
    updated_at: isoMicros(r.updated_at),
  };
}
