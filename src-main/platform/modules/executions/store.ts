import { connect, type DB } from '../../db/connection.js';
import type { Execution, ExecutionContext, ExecutionStatus, ExecutionTiming } from '../../contract/executions.js';
import { isoMicros } from '../../kernel/time.js';
import type { ToolStep } from '../../contract/tools.js';
import { isObject, readStoredJson, readStoredList } from '../../kernel/stored-json.js';

export interface ExecutionRow {
  id: number;
  agent_id: number;
  user_id: number;
  /** the session: its first execution's id (the first's own) */
  root_id: number;
  /** the execution this turn follows (NULL: a session's first turn) */
  parent_id: number | null;
  status: ExecutionStatus;
  input: string;
  output: string;
  error_message: string | null;
  error_code: string | null;
  credits: number | null;
  model: string | null;
  provider: string | null;
  answers: string;
  turns: string;
  file_ids: string;
  context: string;
  /** ext: JSON array of tool steps */
  steps?: string;
  output_file_id: number | null;
  input_tokens: number;
  output_tokens: number;
  /** ext: when the first text arrived (microseconds; null before it, and for older executions) */
  first_token_at?: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export function toExecution(r: ExecutionRow): Execution {
  const ctx = readStoredJson<Partial<ExecutionContext>>(r.context, { column: 'executions.context', id: r.id }, {}, isObject);
  const steps = r.steps && r.steps !== '[]' ? readStoredList<ToolStep>(r.steps, { column: 'executions.steps', id: r.id }, isObject) : [];
  return {
    id: r.id,
    status: r.status,
    input: r.input,
    output: r.output,
    error: r.error_message !== null ? { message: r.error_message, code: r.error_code ?? 'error' } : null,
    credits: r.credits,
    root_id: r.root_id,
    created_at: isoMicros(r.created_at),
    updated_at: isoMicros(r.updated_at),
    template_id: r.agent_id,
    model: r.model,
    context: { memories: Array.isArray(ctx.memories) ? ctx.memories : [], passages: Array.isArray(ctx.passages) ? ctx.passages : [] },
    ...(steps.length ? { steps } : {}),
    ...timingOf(r),
  };
}

/** ext `timing`: a finished answer's time to its first text and its speed, when its first text's time was recorded. */
function timingOf(r: ExecutionRow): { timing?: ExecutionTiming } {
  if (r.finished_at === null || r.first_token_at === null || r.first_token_at === undefined) return {};
  const writing = (r.finished_at - r.first_token_at) / 1e6;
  const perSecond = r.output_tokens > 0 && writing > 0 ? Math.round((r.output_tokens / writing) * 10) / 10 : null;
  return { timing: { first_token_ms: Math.max(0, Math.round((r.first_token_at - r.created_at) / 1000)), tokens_per_second: perSecond } };
}

export interface FinalRecord {
  id: number;
  status: ExecutionStatus;
  output: string;
  errorMessage: string | null;
  errorCode: string | null;
  credits: number;
  inputTokens: number;
  outputTokens: number;
  outputFileId: number | null;
  provider: string | null;
  context?: ExecutionContext | null;
  /** ext: the run's tool steps (null: unchanged) */
  steps?: ToolStep[] | null;
  /** when the first text arrived (microseconds), if it did */
  firstTokenAt?: number | null;
  now: number;
}

/** A running execution's streamed state, as `progress` writes it. */
export interface ProgressState {
  id: number;
  status: ExecutionStatus;
  output: string;
  provider: string | null;
  now: number;
  steps: ToolStep[] | null;
  /** its first write: enter it in session search too */
  index: boolean;
}

/** A new execution's id and its session's. */
export interface Created {
  id: number;
  rootId: number;
}

export interface NewExecution {
  agentId: number;
  userId: number;
  /** the session it continues (NULL: it starts one, and is its own root) */
  rootId: number | null;
  /** the execution this turn follows (NULL: a session's first turn) */
  parentId: number | null;
  input: string;
  credits: number;
  model: string | null;
  answers: string;
  turns: string;
  fileIds: string;
  now: number;
}

/**
 * Prepared statements of the executions table; one place for its SQL.
 *
 * Two connections to the same WAL database: accepting an execution and its streamed progress
 * go through a second connection with `synchronous = NORMAL` (a commit is in the WAL, safe from
 * a crash or kill -9, without waiting for an fsync that costs ~10 ms here and would block the
 * event loop 10 times a second per running stream); the final record goes through the
 * platform's `synchronous = FULL` connection, so results also survive a power cut. After a power
 * cut only a running execution's last streamed text can be missing, and such executions are
 * marked failed at the next start anyway. An execution whose creator writes a row with it (a
 * schedule's run) is the exception: both go through the platform's connection in one
 * transaction, since a commit on each connection could be separated by a crash.
 */
export class ExecutionsStore {
  private readonly fast: DB;
  private readonly insertFastStmt;
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly progressStmt;
  private readonly indexStmt;
  private readonly finishStmt;
  private readonly liveStmt;

  constructor(private readonly db: DB) {
    // An in-memory database cannot be shared: fall back to the one connection.
    this.fast = db.memory ? db : connect(db.name, { sync: 'normal' });
    const fast = this.fast;
    // The id is chosen in the statement (inside the write lock), so a new session's root is set
    // in the same INSERT: no second statement.
    const insert = `INSERT INTO executions(id, agent_id, user_id, root_id, parent_id, status, input, output, credits, model, answers, turns, file_ids, created_at, updated_at)
       SELECT n.id, @agentId, @userId, coalesce(@rootId, n.id), @parentId, 'starting', @input, '', @credits, @model, @answers, @turns, @fileIds, @now, @now
       FROM (SELECT coalesce(max(id), 0) + 1 AS id FROM executions) AS n
       RETURNING id, root_id AS rootId`;
    this.insertFastStmt = fast.prepare<NewExecution, Created>(insert);
    this.insertStmt = db.prepare<NewExecution, Created>(insert);
    this.byIdStmt = db.prepare<[number, number], ExecutionRow>('SELECT * FROM executions WHERE id = ? AND user_id = ?');
    this.progressStmt = fast.prepare(`UPDATE executions SET status = @status, output = @output, provider = coalesce(@provider, provider), steps = coalesce(@steps, steps), updated_at = @now WHERE id = @id AND status IN ('starting','running')`);
    // Session search: a running execution's text so far, once (migration 20; the end re-indexes it).
    this.indexStmt = fast.prepare<{ id: number }>(
      `INSERT INTO session_search(rowid, body) SELECT id, input || char(10) || output FROM executions
       WHERE id = @id AND status IN ('starting','running') AND NOT EXISTS (SELECT 1 FROM session_search WHERE rowid = @id)`,
    );
    this.finishStmt = db.prepare(
      `UPDATE executions SET status = @status, output = @output, error_message = @errorMessage, error_code = @errorCode, credits = @credits, context = coalesce(@context, context),
       input_tokens = @inputTokens, output_tokens = @outputTokens, output_file_id = @outputFileId, provider = coalesce(@provider, provider), steps = coalesce(@steps, steps), first_token_at = coalesce(@firstTokenAt, first_token_at),
       updated_at = @now, finished_at = @now
       WHERE id = @id`,
    );
    this.liveStmt = db.prepare<[], ExecutionRow>(`SELECT * FROM executions WHERE status IN ('starting','running')`);
  }

  get open(): boolean {
    return this.db.open && this.fast.open;
  }

  /** Closes the second connection (the platform closes its own). */
  close(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    this.dirty.clear();
    if (this.fast !== this.db && this.fast.open) this.fast.close();
  }

  /**
   * Inserts a `starting` execution; a new session's root is the execution itself. `withIt`: the
   * creator's own writes, which commit with it in one transaction on the platform's connection (a
   * crash keeps both or neither); without it, one commit on the fast connection.
   */
  insert(e: NewExecution, withIt?: (id: number) => void): Created {
    if (!withIt) return this.fast.transaction(() => this.insertFastStmt.get(e)!).immediate();
    return this.db
      .transaction(() => {
        const created = this.insertStmt.get(e)!;
        withIt(created.id);
        return created;
      })
      .immediate();
  }

  row(id: number, userId: number): ExecutionRow | undefined {
    return this.byIdStmt.get(id, userId);
  }

  /**
   * A running execution's streamed state. `index`: its first write also enters it in session
   * search (not done when it is created: that commit is on the way to the first text).
   */
  progress(id: number, status: ExecutionStatus, output: string, provider: string | null, now: number, steps: ToolStep[] | null = null, index = false): void {
    const s = { id, status, output, provider, now, steps, index };
    if (!index) this.writeProgress(s);
    else this.fast.transaction(() => this.writeProgress(s))();
  }

  /** `progress` inside a transaction the caller holds (both statements commit together). */
  private writeProgress(s: ProgressState): void {
    // awaiting_approval lives in memory; the row reads running (start-up recovery finds it).
    this.progressStmt.run({ id: s.id, status: s.status === 'awaiting_approval' ? 'running' : s.status, output: s.output, provider: s.provider, now: s.now, steps: s.steps?.length ? JSON.stringify(s.steps) : null });
    if (s.index) this.indexStmt.run({ id: s.id });
  }

  /** Running executions whose streamed state is due to be written, each with how to read it then. */
  private dirty = new Map<number, () => ProgressState | null>();
  private progressTimer: NodeJS.Timeout | null = null;
  /** Commits of streamed state so far (every due execution's in one each). */
  progressCommits = 0;

  /**
   * Writes a running execution's streamed state within `delayMs`, in one commit with every other
   * execution due by then: 200 streams each writing on its own 100 ms timer cost 2,000 commits a
   * second on the event loop; sharing one timer costs 10. `read` runs at the write, so the
   * latest state is written; it returns null when there is nothing to write any more.
   */
  progressSoon(id: number, read: () => ProgressState | null, delayMs: number): void {
    this.dirty.set(id, read);
    if (this.progressTimer) return;
    this.progressTimer = setTimeout(() => this.flushProgress(), delayMs);
    this.progressTimer.unref();
  }

  /** Drops a pending progress write (the execution ended: its final record follows). */
  forgetProgress(id: number): void {
    this.dirty.delete(id);
  }

  /** Writes every due progress now, in one transaction. */
  flushProgress(): void {
    if (this.progressTimer) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    const due = [...this.dirty.values()];
    this.dirty.clear();
    if (!due.length || !this.open) return;
    this.fast.transaction(() => {
      for (const read of due) {
        const s = read();
        if (s) this.writeProgress(s);
      }
    })();
    this.progressCommits++;
  }

  finish(f: FinalRecord): void {
    this.finishStmt.run({ ...f, firstTokenAt: f.firstTokenAt ?? null, context: f.context ? JSON.stringify(f.context) : null, steps: f.steps?.length ? JSON.stringify(f.steps) : null });
  }

  /**
   * Writes final records, each followed by its `after` (the `execution.finished` fan-out) in the
   * same transaction: a crash can never leave a terminal execution without its webhook events.
   */
  finishAll(list: { f: FinalRecord; after?: () => void }[]): void {
    this.db
      .transaction(() => {
        for (const b of list) {
          this.finish(b.f);
          b.after?.();
        }
      })
      .immediate();
  }

  private pending: { f: FinalRecord; after?: () => void; done: (err?: unknown) => void }[] = [];

  /**
   * Writes a final record together with the others that end in the same turn of the event loop:
   * one fsync'd commit for many (100 streams ending together cost one fsync, not 100).
   * `after` runs inside that transaction, right after the record is written. Rejects when nothing
   * was written (the database closed before the batch's turn, or the commit failed).
   */
  finishSoon(f: FinalRecord, after?: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ f, after, done: (err) => (err ? reject(err) : resolve()) });
      if (this.pending.length > 1) return;
      // A loop iteration later, not in this one's check phase: the I/O that is due first (the
      // first text another stream just wrote, a new request) is not held behind an fsync.
      setImmediate(() => setImmediate(() => {
        const batch = this.pending;
        this.pending = [];
        let error: unknown = null;
        try {
          // Closed meanwhile (shutdown): nothing was written, and the callers must hear so.
          if (!this.open) throw new Error('The database was closed before the end of the execution could be stored.');
          this.finishAll(batch);
        } catch (err) {
          error = err;
        }
        batch.forEach((b) => b.done(error));
      }));
    });
  }

  unfinished(): ExecutionRow[] {
    return this.liveStmt.all();
  }
}
