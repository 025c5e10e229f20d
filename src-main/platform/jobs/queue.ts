import type { DB } from '../db/connection.js';
import { JobsStore, type JobRow as Row } from './store.js';
import type { Logger } from '../kernel/log.js';
import { readStoredJson } from '../kernel/stored-json.js';
import { backoffDelay, type BackoffSchedule } from '../kernel/backoff.js';

export interface Job<P = unknown> {
  id: number;
  kind: string;
  payload: P;
  attempts: number;
  maxAttempts: number;
  lane: string | null;
}

/** Thrown by a handler for a failure that retrying cannot fix. */
export class PermanentJobError extends Error {}

/**
 * A handler does the work. It may return a function that the queue runs in the same
 * transaction that marks the job done, so "the effect is recorded" and "the job is
 * finished" commit together (no duplicate after a crash between the two).
 */
export type JobHandler<P = unknown> = (job: Job<P>) => Promise<void | (() => void)>;

export interface JobKindOptions<P = unknown> {
  concurrency?: number;
  maxAttempts?: number;
  /** Delay before the next attempt, given the number of attempts made so far (1 after the first failure). */
  backoffMs?: (attempts: number) => number;
  /** Called when the last attempt failed (inside the transaction that marks the job failed). `err` is what the handler threw. */
  onGiveUp?: (job: Job<P>, error: string, err: unknown) => void;
  /** Called after each failed attempt that will be retried (inside the same transaction). */
  onRetry?: (job: Job<P>, error: string, nextRunAt: number, err: unknown) => void;
  /**
   * Lane mode. Unset (default): a lane is strict, one job at a time, oldest first, and a job
   * waiting for its retry holds up the lane. Set to N (or a function of the lane giving N): up to
   * N jobs of a lane run at once, due jobs oldest first, and a job waiting for its retry does not
   * hold up the lane's newer jobs (webhook deliveries: a receiver that is down must not block its
   * later events forever).
   */
  laneLimit?: number | ((lane: string) => number);
}

interface Finishing {
  k: Kind;
  job: Job;
  lane: string | null;
  commit: void | (() => void);
  resolve: () => void;
}

interface Kind {
  handler: JobHandler;
  opts: Required<Pick<JobKindOptions, 'concurrency' | 'maxAttempts' | 'backoffMs'>> & JobKindOptions;
  running: number;
  /** Running jobs per lane (laneLimit mode only). */
  laneRunning: Map<string, number>;
}

/**
 * The durable queue: jobs are rows in the platform's SQLite file (ARCHITECTURE.md "Durable
 * background work"). Jobs found `running` at start belonged to a process that died: they run
 * again. Jobs of one `lane` run one at a time, oldest first.
 */
/** How often an idle queue checks for jobs that another process added. */
/** Retries of a kind that names no wait of its own: 2 s, doubling, at most an hour. */
const DEFAULT_BACKOFF: BackoffSchedule = { firstMs: 2_000, maxMs: 3_600_000 };
const IDLE_POLL_MS = 2_000;
/**
 * Handlers started in one turn of the event loop; the others claimed with them start in the next
 * turns. A handler's synchronous start (reading its row, building and sending a request) is
 * small, but a burst claims a whole kind's concurrency at once and would run them all in one turn.
 */
const STARTS_PER_TURN = 4;

export class JobQueue {
  private readonly kinds = new Map<string, Kind>();
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopping = false;
  private readonly inFlight = new Set<Promise<void>>();
  private pumping = false;
  private again = false;
  private wakeQueued = false;
  private finishing: Finishing[] = [];
  private startsThisTurn = 0;
  private readonly waitingToStart: (() => void)[] = [];
  private turnArmed = false;
  /**
   * Retries this process scheduled, by job id, on the monotonic clock: `run_at` is wall-clock
   * time (it must survive a restart), so a clock moved back would otherwise delay them by the jump.
   */
  private readonly retryDue = new Map<number, number>();

  constructor(
    private readonly db: DB,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly mono: () => number = () => performance.now(),
  ) {
    this.store = new JobsStore(db);
  }

  register<P>(kind: string, handler: JobHandler<P>, opts: JobKindOptions<P> = {}): void {
    // Stored untyped: the payload was written by `enqueue` for this kind, so it has the kind's shape.
    this.kinds.set(kind, {
      handler: handler as JobHandler,
      opts: { concurrency: opts.concurrency ?? 2, maxAttempts: opts.maxAttempts ?? 1, backoffMs: opts.backoffMs ?? ((n) => backoffDelay(DEFAULT_BACKOFF, n - 1)), ...(opts as JobKindOptions) },
      running: 0,
      laneRunning: new Map(),
    });
    if (this.started) this.wake();
  }

  /** Adds a job (synchronously, so it can join the caller's transaction). */
  enqueue(kind: string, payload: unknown, opts: { runAt?: number; lane?: string; maxAttempts?: number } = {}): number {
    const now = this.now();
    const maxAttempts = opts.maxAttempts ?? this.kinds.get(kind)?.opts.maxAttempts ?? 1;
    const id = this.store.insert({ kind, payload: JSON.stringify(payload ?? {}), maxAttempts, runAt: opts.runAt ?? now, lane: opts.lane ?? null, now });
    if (this.started) this.wake();
    return id;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    // The attempt a dead process was making never finished: it is not charged (attempts count at claim).
    const reset = this.store.resumeInterrupted(this.now());
    if (reset) this.log.info({ jobs: reset }, 'resuming jobs interrupted by the last shutdown');
    this.wake();
  }

  /** Stops taking jobs and waits (up to `timeoutMs`) for the running ones; unfinished ones resume next start. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.halt();
    const all = Promise.allSettled([...this.inFlight]);
    await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  /** Stops taking jobs at once, without waiting for the running ones. */
  halt(): void {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves when no job is due or running (tests and benchmarks). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const due = this.store.busy(this.now());
      if (!due && this.inFlight.size === 0) return;
      if (Date.now() > end) throw new Error('jobs did not become idle in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  wake(): void {
    if (this.stopping || !this.started) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    // One pump per tick however many jobs were enqueued (a fan-out enqueues many at once).
    if (this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    // A database closed under us (the process is going down) ends the queue quietly.
    if (this.stopping || !this.db.open) return;
    this.pumping = true;
    try {
      this.releaseDueRetries();
      do {
        this.again = false;
        for (const [k, r] of this.claimDue()) this.run(k, r);
      } while (this.again && !this.stopping);
    } finally {
      this.pumping = false;
    }
    this.schedule();
  }

  /** Marks due jobs `running` (the caller starts them once that is committed). */
  private claimDue(): [Kind, Row][] {
    const now = this.now();
    const claimed: [Kind, Row][] = [];
    // A read first: a claim is a write transaction, and taking the write lock for a kind with
    // nothing due would wait behind an extraction process's commit for nothing.
    for (const [kind, k] of this.kinds) {
      const free = k.opts.concurrency - k.running;
      if (free <= 0 || !this.store.anyDue(kind, now)) continue;
      if (k.opts.laneLimit) {
        for (const r of this.claimByLaneLimit(kind, k, free, now)) claimed.push([k, r]);
        continue;
      }
      const rows = this.db.transaction(() => this.store.dueStrict(kind, now, free).filter((r) => this.store.markRunning(r.id, now))).immediate();
      for (const r of rows) claimed.push([k, r]);
    }
    return claimed;
  }

  /**
   * Claims up to `free` due jobs, oldest first, at most the lane's limit per lane. Lanes are
   * enumerated with a loose index scan (one seek per lane) and each lane with room is read on its
   * own, so a lane with a backlog of thousands costs one seek, not a scan, and never hides the
   * other lanes' jobs behind it.
   */
  private claimByLaneLimit(kind: string, k: Kind, free: number, now: number): Row[] {
    const opt = k.opts.laneLimit!;
    const limitOf = typeof opt === 'function' ? opt : () => opt;
    return this.db.transaction(() => {
      const candidates = this.store.dueWithoutLane(kind, now, free);
      for (const lane of this.store.pendingLanes(kind)) {
        const room = Math.min(free, limitOf(lane) - (k.laneRunning.get(lane) ?? 0));
        if (room > 0) candidates.push(...this.store.dueInLane(kind, lane, now, room));
      }
      candidates.sort((a, b) => a.run_at - b.run_at || a.id - b.id);
      return candidates.slice(0, free).filter((r) => this.store.markRunning(r.id, now));
    }).immediate();
  }

  /** The jobs table's statements, compiled once (the claim and finish paths run per job). */
  private readonly store: JobsStore;

  private run(k: Kind, r: Row): void {
    k.running++;
    if (k.opts.laneLimit && r.lane !== null) k.laneRunning.set(r.lane, (k.laneRunning.get(r.lane) ?? 0) + 1);
    const job: Job = { id: r.id, kind: r.kind, payload: readStoredJson<unknown>(r.payload, { column: 'jobs.payload', id: r.id }, {}), attempts: r.attempts + 1, maxAttempts: r.max_attempts, lane: r.lane };
    const p = (async () => {
      await this.startSlot();
      // Stopped meanwhile: the job stays `running` in the table and resumes at the next start.
      if (this.stopping || !this.db.open) {
        this.release(k, r.lane);
        return;
      }
      let commit: void | (() => void);
      try {
        commit = await k.handler(job);
      } catch (err) {
        this.fail(k, job, err);
        this.release(k, r.lane);
        return;
      }
      await this.finish(k, job, r.lane, commit);
    })().finally(() => {
      this.inFlight.delete(p);
      this.wake();
    });
    this.inFlight.add(p);
  }

  /** Resolves when this turn has room for one more handler to start (see STARTS_PER_TURN). */
  private startSlot(): Promise<void> {
    this.armTurn();
    if (this.startsThisTurn < STARTS_PER_TURN) {
      this.startsThisTurn++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waitingToStart.push(resolve));
  }

  private armTurn(): void {
    if (this.turnArmed) return;
    this.turnArmed = true;
    setImmediate(() => {
      this.turnArmed = false;
      const next = this.waitingToStart.splice(0, STARTS_PER_TURN);
      this.startsThisTurn = next.length;
      if (this.waitingToStart.length) this.armTurn();
      for (const resolve of next) resolve();
    });
  }

  /** Frees a job's slot in its kind and lane. */
  private release(k: Kind, lane: string | null): void {
    k.running--;
    if (k.opts.laneLimit && lane !== null) {
      const n = (k.laneRunning.get(lane) ?? 1) - 1;
      if (n > 0) k.laneRunning.set(lane, n);
      else k.laneRunning.delete(lane);
    }
  }

  /**
   * Marks a job done together with its commit function. Jobs that finish in the same tick share
   * one transaction (one fsync for all: the cost that bounds throughput under synchronous=FULL);
   * each runs in its own savepoint, so one commit that throws fails only its own job.
   */
  private finish(k: Kind, job: Job, lane: string | null, commit: void | (() => void)): Promise<void> {
    return new Promise((resolve) => {
      this.finishing.push({ k, job, lane, commit, resolve });
      if (this.finishing.length === 1) setImmediate(() => this.flushFinished());
    });
  }

  private flushFinished(): void {
    const batch = this.finishing.splice(0);
    // Their slots are free for the claim below (a job whose commit fails stays `running` in the
    // table until fail() reschedules it, so nothing else takes it meanwhile).
    for (const f of batch) this.release(f.k, f.lane);
    const failed = new Map<Finishing, unknown>();
    let claimed: [Kind, Row][] = [];
    try {
      this.db.transaction(() => {
        for (const f of batch) {
          try {
            this.db.transaction(() => {
              if (typeof f.commit === 'function') f.commit();
              this.store.delete(f.job.id);
            })();
          } catch (err) {
            failed.set(f, err);
          }
        }
        // The next jobs are claimed in the same transaction: one commit (one fsync) per round, not two.
        if (!this.stopping) {
          try {
            claimed = this.claimDue();
          } catch (err) {
            this.log.error({ err }, 'could not claim jobs');
          }
        }
      }).immediate();
    } catch (err) {
      // The batch did not commit: none of it is done, and nothing was claimed.
      claimed = [];
      for (const f of batch) if (!failed.has(f)) failed.set(f, err);
    }
    for (const [f, err] of failed) this.fail(f.k, f.job, err);
    for (const [k, r] of claimed) this.run(k, r);
    for (const f of batch) f.resolve();
  }

  private fail(k: Kind, job: Job, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    const permanent = err instanceof PermanentJobError;
    const now = this.now();
    try {
      this.db.transaction(() => {
        if (permanent || job.attempts >= job.maxAttempts) {
          this.store.markFailed(job.id, message, now);
          k.opts.onGiveUp?.(job, message, err);
        } else {
          const delay = Math.max(0, k.opts.backoffMs(job.attempts));
          const next = now + delay;
          this.store.retryAt(job.id, message, next, now);
          this.retryDue.set(job.id, this.mono() + delay);
          k.opts.onRetry?.(job, message, next, err);
        }
      }).immediate();
    } catch (e) {
      this.log.error({ err: e, job: job.id }, 'could not record a job failure');
    }
  }

  /** Retries whose monotonic time has come are made due now, whatever the wall clock did meanwhile. */
  private releaseDueRetries(): void {
    if (!this.retryDue.size) return;
    const mono = this.mono();
    const now = this.now();
    for (const [id, due] of this.retryDue) {
      if (due > mono) continue;
      this.retryDue.delete(id);
      this.store.dueNow(id, now);
    }
  }

  private schedule(): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    const kinds = [...this.kinds.keys()];
    if (!kinds.length) return;
    const next = this.store.nextRunAt(kinds);
    // Another process on the same data dir (npm run mcp, keys) may add jobs without waking us:
    // an idle queue still looks every IDLE_POLL_MS.
    if (next === null) {
      this.timer = setTimeout(() => this.pump(), IDLE_POLL_MS);
      this.timer.unref();
      return;
    }
    let delay = Math.min(Math.max(next - this.now(), 0), IDLE_POLL_MS);
    for (const due of this.retryDue.values()) delay = Math.min(delay, Math.max(due - this.mono(), 1));
    // A job that is due but was not taken waits on a saturated kind or a busy lane: a finishing
    // job wakes the queue, so a slow poll is only a safety net here.
    this.timer = setTimeout(() => this.pump(), delay === 0 ? 250 : delay);
    this.timer.unref();
  }
}
