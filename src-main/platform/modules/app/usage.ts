import type { DB } from '../../db/connection.js';
import { CREDITS } from '../../kernel/credits.js';
import type { Usage, UsageDay } from '../../contract/app-settings.js';

const DAY_MS = 86_400_000;
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface DayRow {
  day: string;
  n: number;
  credits: number;
}

/**
 * Credits spent per UTC day, from the executions and processed files themselves (no separate
 * ledger): an execution counts on the day it started, a file on the day its processing ended.
 * A deleted file takes its credits out of the history with it.
 */
export class UsageService {
  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  /** Tables appear with their migrations; usage reads whichever exist. */
  private hasTable(name: string): boolean {
    return !!this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
  }

  private executionsByDay(userId: number, fromMicros: number): DayRow[] {
    if (!this.hasTable('executions')) return [];
    return this.db
      .prepare<[number, number], DayRow>(
        `SELECT date(created_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
         FROM executions WHERE user_id = ? AND created_at >= ? GROUP BY day`,
      )
      .all(userId, fromMicros);
  }

  /** Files belong to workspaces: the user's usage is what was processed in their workspaces. */
  private filesByDay(userId: number, fromMicros: number): DayRow[] {
    if (!this.hasTable('files')) return [];
    return this.db
      .prepare<[number, number], DayRow>(
        `SELECT date(processed_at / 1000000, 'unixepoch') AS day, count(*) AS n, coalesce(sum(credits), 0) AS credits
         FROM files
         WHERE processed_at IS NOT NULL AND processed_at >= ? AND credits > 0
           AND workspace_id IN (SELECT workspace_id FROM workspace_members WHERE user_id = ?)
         GROUP BY day`,
      )
      .all(fromMicros, userId);
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
    for (const r of this.executionsByDay(userId, fromMs * 1000)) {
      const d = data.get(r.day);
      if (d) Object.assign(d, { executions: r.n, execution_credits: round(r.credits) });
    }
    for (const r of this.filesByDay(userId, fromMs * 1000)) {
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
