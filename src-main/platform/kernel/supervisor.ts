import { backoffDelay, type BackoffSchedule } from './backoff.js';

/**
 * The one rule for restarting a process that died (the platform process, an MCP server): each
 * failure in a row waits longer (a back-off schedule); a process that ran `healthyMs` before it
 * died was healthy, so the count starts again; after `giveUpAfter` failures in a row it stays down.
 * It only decides; the owner starts the process and says when it started and when it died.
 */
export class RestartSupervisor {
  private failuresInRow = 0;
  private startedAt = 0;
  private readonly now: () => number;

  constructor(private readonly opts: { schedule: BackoffSchedule; healthyMs: number; giveUpAfter?: number; now?: () => number }) {
    this.now = opts.now ?? Date.now;
  }

  /** Failures in a row so far. */
  get failures(): number {
    return this.failuresInRow;
  }

  /** The process started (again). */
  started(): void {
    this.startedAt = this.now();
  }

  /** It died after it had started: the wait before the next start, or null once it should stay down. */
  died(): number | null {
    if (this.now() - this.startedAt > this.opts.healthyMs) this.failuresInRow = 0;
    return this.failed();
  }

  /** It failed (died, or never got going): the wait before the next start, or null once it should stay down. */
  failed(): number | null {
    if (this.opts.giveUpAfter !== undefined && this.failuresInRow >= this.opts.giveUpAfter) return null;
    return backoffDelay(this.opts.schedule, this.failuresInRow++);
  }
}
