import type { DB } from '../../db/connection.js';
import { UsageStore, type UsageScope } from './store.js';
import { CREDITS } from '../../kernel/credits.js';
import { ValidationError } from '../../kernel/errors.js';
import { offsetOf } from '../../kernel/context.js';
import { USAGE_MAX_DAYS, type Usage, type UsageDay, type WorkspaceUsage, type WorkspaceUsageQuery } from '../../contract/usage.js';
import { say } from '../../contract/messages.js';

const DAY_MS = 86_400_000;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const RANGE_DAYS = { '1d': 1, '7d': 7, '30d': 30 } as const;

/** Midnight UTC of a `YYYY-MM-DD` that names a real day, else null (2026-02-30 is not one). */
function parseDay(s: string): number | null {
  const ms = Date.parse(`${s}T00:00:00Z`);
  return Number.isFinite(ms) && dayOf(ms) === s ? ms : null;
}

/** Who asks, and in which workspace (resolved by the access module's one rule). */
export interface UsageCaller {
  userId: number;
  workspaceId: number;
  /** The caller's selected workspace: where executions of deleted agents count. */
  selectedWorkspaceId: number;
}

/**
 * The Usage screen's numbers, read from the stored executions and files themselves (no separate
 * ledger). `perDay` (ext `GET /api/usage`): credits spent per UTC day; an execution counts on the
 * day it started, a file on the day its processing ended, and a deleted file takes its credits out
 * of the history with it. `report` (ext `GET /api/workspaces/usage`, CONTRACT.md "Usage (ext)"):
 * executions, tokens and credits per UTC day, agent and model.
 */
export class UsageService {
  private readonly store: UsageStore;

  constructor(
    db: DB,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new UsageStore(db);
  }

  /** The last `days` UTC days up to today, one entry per day (zeros included), oldest first. */
  perDay(userId: number, days: number): Usage {
    const today = Date.parse(`${dayOf(this.now())}T00:00:00Z`);
    const fromMs = today - (days - 1) * DAY_MS;
    const data = new Map<string, UsageDay>();
    for (let i = 0; i < days; i++) {
      const date = dayOf(fromMs + i * DAY_MS);
      data.set(date, { date, executions: 0, execution_credits: 0, files: 0, file_credits: 0, credits: 0 });
    }
    for (const r of this.store.executionsByDay(userId, fromMs * 1000)) {
      const d = data.get(r.day);
      if (d) Object.assign(d, { executions: r.n, execution_credits: round(r.credits) });
    }
    for (const r of this.store.filesByDay(userId, fromMs * 1000)) {
      const d = data.get(r.day);
      if (d) Object.assign(d, { files: r.n, file_credits: round(r.credits) });
    }
    const list = [...data.values()].map((d) => ({ ...d, credits: round(d.execution_credits + d.file_credits) }));
    return {
      days,
      from: dayOf(fromMs),
      to: dayOf(today),
      total_credits: round(list.reduce((s, d) => s + d.credits, 0)),
      executions: list.reduce((s, d) => s + d.executions, 0),
      files: list.reduce((s, d) => s + d.files, 0),
      data: list,
      formula: { ...CREDITS },
    };
  }

  /** The UTC days asked for, as [first day's midnight, the midnight after the last day). */
  period(q: Pick<WorkspaceUsageQuery, 'range' | 'start_date' | 'end_date'>): { fromMs: number; toMs: number } {
    if (q.start_date !== undefined || q.end_date !== undefined) {
      const errors: Record<string, string[]> = {};
      if (q.start_date === undefined) errors.start_date = [say.required('start date', 'when end date is present')];
      if (q.end_date === undefined) errors.end_date = [say.required('end date', 'when start date is present')];
      const from = q.start_date === undefined ? null : parseDay(q.start_date);
      const to = q.end_date === undefined ? null : parseDay(q.end_date);
      if (q.start_date !== undefined && from === null) errors.start_date = [say.must('start date', 'be a real calendar date')];
      if (q.end_date !== undefined && to === null) errors.end_date = [say.must('end date', 'be a real calendar date')];
      if (from !== null && to !== null) {
        if (to < from) errors.end_date = [say.must('end date', 'be a date after or equal to start date')];
        else if ((to - from) / DAY_MS + 1 > USAGE_MAX_DAYS) errors.end_date = [`The period from start date to end date may span at most ${USAGE_MAX_DAYS} days.`];
      }
      if (Object.keys(errors).length) throw new ValidationError(errors);
      return { fromMs: from!, toMs: to! + DAY_MS };
    }
    const days = RANGE_DAYS[q.range ?? '7d'];
    const tomorrow = Date.parse(`${dayOf(this.now())}T00:00:00Z`) + DAY_MS;
    return { fromMs: tomorrow - days * DAY_MS, toMs: tomorrow };
  }

  report(caller: UsageCaller, q: WorkspaceUsageQuery): WorkspaceUsage {
    const { fromMs, toMs } = this.period(q);
    const scope: UsageScope = {
      fromMicros: fromMs * 1000,
      toMicros: toMs * 1000,
      workspaceId: caller.workspaceId,
      caller: caller.userId,
      callerWorkspaceId: caller.selectedWorkspaceId,
      userId: q.user_id ?? null,
      type: q.type === 'all' ? null : q.type,
    };
    // One row more than the page tells whether another page follows.
    const rows = this.store.reportRows(scope, q.per_page + 1, offsetOf(q.page, q.per_page));
    const t = this.store.reportTotals(scope);
    return {
      data: rows.slice(0, q.per_page).map((r) => ({ ...r, credits: round(r.credits) })),
      totals: { executions: t.executions, tokens_in: t.tokens_in, tokens_out: t.tokens_out, credits: round(t.credits) },
      has_more: rows.length > q.per_page,
    };
  }
}
