import type { DB } from '../db/connection.js';
import { statements } from '../db/statements.js';

/** A job as the queue claims it. */
export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  lane: string | null;
}

type DueRow = JobRow & { run_at: number };

const DUE_COLUMNS = 'id, kind, payload, attempts, max_attempts, lane, run_at';

/**
 * The job queue's SQL (the `jobs` table), each statement compiled once per database. The queue
 * (queue.ts) holds the rules: claiming, lanes, retries, batching; the callers open the
 * transactions around these statements.
 */
export class JobsStore {
  private readonly sql;

  constructor(db: DB) {
    this.sql = statements(db);
  }

  insert(r: { kind: string; payload: string; maxAttempts: number; runAt: number; lane: string | null; now: number }): number {
    return Number(
      this.sql('INSERT INTO jobs(kind, payload, state, attempts, max_attempts, run_at, lane, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?)').run(
        r.kind,
        r.payload,
        'pending',
        r.maxAttempts,
        r.runAt,
        r.lane,
        r.now,
        r.now,
      ).lastInsertRowid,
    );
  }

  /** Jobs left `running` by a process that died go back to `pending`, the attempt not charged; returns how many. */
  resumeInterrupted(now: number): number {
    return this.sql("UPDATE jobs SET state = 'pending', attempts = max(attempts - 1, 0), updated_at = ? WHERE state = 'running'").run(now).changes;
  }

  /** Jobs due or running. */
  busy(now: number): number {
    return this.sql<[number], { n: number }>("SELECT count(*) AS n FROM jobs WHERE (state = 'pending' AND run_at <= ?) OR state = 'running'").get(now)!.n;
  }

  anyDue(kind: string, now: number): boolean {
    return !!this.sql<[string, number], { x: number }>("SELECT 1 AS x FROM jobs WHERE kind = ? AND state = 'pending' AND run_at <= ? LIMIT 1").get(kind, now);
  }

  /** Due jobs of a kind, oldest first, skipping any whose lane has an older job pending or running (strict lanes). */
  dueStrict(kind: string, now: number, limit: number): JobRow[] {
    return this.sql<[string, number, number], JobRow>(
      `SELECT id, kind, payload, attempts, max_attempts, lane FROM jobs j
       WHERE kind = ? AND state = 'pending' AND run_at <= ?
         AND (lane IS NULL OR NOT EXISTS (SELECT 1 FROM jobs o WHERE o.lane = j.lane AND o.id < j.id AND o.state IN ('pending','running')))
       ORDER BY run_at, id LIMIT ?`,
    ).all(kind, now, limit);
  }

  /** The lanes with a pending job of a kind, by a loose index scan (one seek per lane, however long its backlog). */
  pendingLanes(kind: string): string[] {
    return this.sql<{ kind: string }, { lane: string }>(
      `WITH RECURSIVE l(lane) AS (
         SELECT (SELECT min(lane) FROM jobs WHERE kind = @kind AND state = 'pending')
         UNION ALL
         SELECT (SELECT min(lane) FROM jobs WHERE kind = @kind AND state = 'pending' AND lane > l.lane) FROM l WHERE l.lane IS NOT NULL
       ) SELECT lane FROM l WHERE lane IS NOT NULL`,
    )
      .all({ kind })
      .map((r) => r.lane);
  }

  /** Due jobs of a kind in one lane, oldest first. */
  dueInLane(kind: string, lane: string, now: number, limit: number): DueRow[] {
    return this.sql<[string, string, number, number], DueRow>(
      `SELECT ${DUE_COLUMNS} FROM jobs WHERE kind = ? AND state = 'pending' AND lane = ? AND run_at <= ? ORDER BY run_at, id LIMIT ?`,
    ).all(kind, lane, now, limit);
  }

  /** Due jobs of a kind in no lane, oldest first. */
  dueWithoutLane(kind: string, now: number, limit: number): DueRow[] {
    return this.sql<[string, number, number], DueRow>(
      `SELECT ${DUE_COLUMNS} FROM jobs WHERE kind = ? AND state = 'pending' AND lane IS NULL AND run_at <= ? ORDER BY run_at, id LIMIT ?`,
    ).all(kind, now, limit);
  }

  /** `pending` to `running`, one attempt more; false when another claim took it first. */
  markRunning(id: number, now: number): boolean {
    return this.sql("UPDATE jobs SET state = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'pending'").run(now, id).changes === 1;
  }

  /** A finished job leaves the table. */
  delete(id: number): void {
    this.sql('DELETE FROM jobs WHERE id = ?').run(id);
  }

  markFailed(id: number, error: string, now: number): void {
    this.sql("UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ?").run(error, now, id);
  }

  /** Back to `pending`, due at `runAt`. */
  retryAt(id: number, error: string, runAt: number, now: number): void {
    this.sql("UPDATE jobs SET state = 'pending', last_error = ?, run_at = ?, updated_at = ? WHERE id = ?").run(error, runAt, now, id);
  }

  /** A pending job due later than `now` becomes due now. */
  dueNow(id: number, now: number): void {
    this.sql('UPDATE jobs SET run_at = ? WHERE id = ? AND state = ? AND run_at > ?').run(now, id, 'pending', now);
  }

  /** The earliest run time of the pending jobs of these kinds, null when none is pending. */
  nextRunAt(kinds: string[]): number | null {
    return this.sql<string[], { t: number | null }>(`SELECT min(run_at) AS t FROM jobs WHERE state = 'pending' AND kind IN (${kinds.map(() => '?').join(',')})`).get(...kinds)?.t ?? null;
  }
}
