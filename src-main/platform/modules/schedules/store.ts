import type { DB } from '../../db/connection.js';

export interface ScheduleRow {
  id: number;
  user_id: number;
  agent_id: number;
  name: string | null;
  cron: string | null;
  every_minutes: number | null;
  timezone: string;
  answers: string;
  messages: string;
  enabled: number;
  next_run_at: number | null;
  last_run_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface RunRow {
  id: number;
  schedule_id: number;
  due_at: number;
  execution_id: number | null;
  error: string | null;
  created_at: number;
}

export type ScheduleValues = Pick<ScheduleRow, 'name' | 'cron' | 'every_minutes' | 'timezone' | 'answers' | 'messages' | 'enabled' | 'next_run_at'>;

/** All of the schedules' SQL, prepared once. Times are microseconds (kernel/time.ts). */
export class SchedulesStore {
  private readonly s;

  constructor(private readonly db: DB) {
    this.s = {
      insert: db.prepare<ScheduleValues & { user_id: number; agent_id: number; now: number }>(
        `INSERT INTO schedules(user_id, agent_id, name, cron, every_minutes, timezone, answers, messages, enabled, next_run_at, created_at, updated_at)
         VALUES (@user_id, @agent_id, @name, @cron, @every_minutes, @timezone, @answers, @messages, @enabled, @next_run_at, @now, @now)`,
      ),
      update: db.prepare<ScheduleValues & { id: number; now: number }>(
        `UPDATE schedules SET name = @name, cron = @cron, every_minutes = @every_minutes, timezone = @timezone, answers = @answers,
         messages = @messages, enabled = @enabled, next_run_at = @next_run_at, updated_at = @now WHERE id = @id`,
      ),
      mine: db.prepare<[number, number], ScheduleRow>('SELECT * FROM schedules WHERE id = ? AND user_id = ?'),
      any: db.prepare<[number], ScheduleRow>('SELECT * FROM schedules WHERE id = ?'),
      page: db.prepare<{ user_id: number; agent_id: number | null; limit: number; offset: number }, ScheduleRow>(
        'SELECT * FROM schedules WHERE user_id = @user_id AND (@agent_id IS NULL OR agent_id = @agent_id) ORDER BY id DESC LIMIT @limit OFFSET @offset',
      ),
      count: db.prepare<{ user_id: number; agent_id: number | null }, { n: number }>(
        'SELECT count(*) AS n FROM schedules WHERE user_id = @user_id AND (@agent_id IS NULL OR agent_id = @agent_id)',
      ),
      remove: db.prepare<[number]>('DELETE FROM schedules WHERE id = ?'),
      due: db.prepare<[number], ScheduleRow>('SELECT * FROM schedules WHERE enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, id'),
      nextDue: db.prepare<[], { t: number | null }>('SELECT min(next_run_at) AS t FROM schedules WHERE enabled = 1'),
      advance: db.prepare<[number | null, number, number, number]>('UPDATE schedules SET next_run_at = ?, last_run_at = ?, updated_at = ? WHERE id = ?'),
      addRun: db.prepare<[number, number, number]>('INSERT OR IGNORE INTO schedule_runs(schedule_id, due_at, created_at) VALUES (?, ?, ?)'),
      run: db.prepare<[number], RunRow>('SELECT * FROM schedule_runs WHERE id = ?'),
      runExecution: db.prepare<[number, number]>('UPDATE schedule_runs SET execution_id = ? WHERE id = ?'),
      runError: db.prepare<[string, number]>('UPDATE schedule_runs SET error = ? WHERE id = ?'),
      runs: db.prepare<[number, number, number], RunRow>('SELECT * FROM schedule_runs WHERE schedule_id = ? ORDER BY due_at DESC, id DESC LIMIT ? OFFSET ?'),
      runCount: db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM schedule_runs WHERE schedule_id = ?'),
    };
  }

  insert(userId: number, agentId: number, v: ScheduleValues, now: number): number {
    return Number(this.s.insert.run({ ...v, user_id: userId, agent_id: agentId, now }).lastInsertRowid);
  }
  update(id: number, v: ScheduleValues, now: number): void {
    this.s.update.run({ ...v, id, now });
  }
  mine(userId: number, id: number): ScheduleRow | undefined {
    return this.s.mine.get(id, userId);
  }
  byId(id: number): ScheduleRow | undefined {
    return this.s.any.get(id);
  }
  page(userId: number, agentId: number | null, limit: number, offset: number): { rows: ScheduleRow[]; total: number } {
    return { rows: this.s.page.all({ user_id: userId, agent_id: agentId, limit, offset }), total: this.s.count.get({ user_id: userId, agent_id: agentId })!.n };
  }
  remove(id: number): void {
    this.s.remove.run(id);
  }
  due(now: number): ScheduleRow[] {
    return this.s.due.all(now);
  }
  nextDue(): number | null {
    return this.s.nextDue.get()?.t ?? null;
  }
  advance(id: number, next: number | null, ranAt: number, now: number): void {
    this.s.advance.run(next, ranAt, now, id);
  }
  /** The run of a schedule at a due time, once: null when that run was already recorded. */
  addRun(scheduleId: number, dueAt: number, now: number): number | null {
    const r = this.s.addRun.run(scheduleId, dueAt, now);
    return r.changes ? Number(r.lastInsertRowid) : null;
  }
  run(id: number): RunRow | undefined {
    return this.s.run.get(id);
  }
  setRunExecution(runId: number, executionId: number): void {
    this.s.runExecution.run(executionId, runId);
  }
  setRunError(runId: number, error: string): void {
    this.s.runError.run(error, runId);
  }
  runs(scheduleId: number, limit: number, offset: number): { rows: RunRow[]; total: number } {
    return { rows: this.s.runs.all(scheduleId, limit, offset), total: this.s.runCount.get(scheduleId)!.n };
  }
}
