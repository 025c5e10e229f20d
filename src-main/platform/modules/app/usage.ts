import type { DB } from '../../db/connection.js';
import { UsageStore } from './store.js';
import { CREDITS } from '../../kernel/credits.js';
import type { Usage, UsageDay } from '../../contract/app-settings.js';
import { UsageReport } from './usage-report.js';

const DAY_MS = 86_400_000;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Credits spent per UTC day, from the executions and processed files themselves (no separate
 * ledger): an execution counts on the day it started, a file on the day its processing ended.
 * A deleted file takes its credits out of the history with it.
 */
export class UsageService {
  private readonly store: UsageStore;
  /** Per day, agent and model (`GET /api/workspaces/usage`). */
  readonly report: UsageReport;

  constructor(
    db: DB,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new UsageStore(db);
    this.report = new UsageReport(db, now);
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
}
