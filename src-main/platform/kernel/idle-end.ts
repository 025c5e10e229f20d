/**
 * Ends something costly to keep (a worker thread holding a model or a tokenizer's tables) once it
 * has gone unused for a while; whoever owns it starts it again on the next use. Using it only
 * notes the time (cheap enough for every token count); one timer checks when the period could be
 * over, and waits again for what is left of it.
 */

/** Time and timers, injected in tests. */
export interface IdleClock {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** The real clock; its timers never keep the process alive. */
export const systemClock: IdleClock = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Default idle period of worker threads that start on demand. */
export const DEFAULT_WORKER_IDLE_MS = 60_000;

/**
 * The idle period of on-demand workers, in ms: AGENT_DESK_WORKER_IDLE_S seconds (0: never end
 * them), else DEFAULT_WORKER_IDLE_MS.
 */
export function workerIdleMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.AGENT_DESK_WORKER_IDLE_S?.trim();
  if (!raw) return DEFAULT_WORKER_IDLE_MS;
  const s = Number(raw);
  return Number.isFinite(s) && s >= 0 ? Math.round(s * 1000) : DEFAULT_WORKER_IDLE_MS;
}

export interface IdleEndOptions {
  /** Idle period in ms; 0 or less never ends. */
  ms: number;
  /** Ends the thing (called at most once per start()). */
  end: () => void;
  /** False while it must stay (work in flight): the check waits a whole period again. */
  canEnd?: () => boolean;
  clock?: IdleClock;
}

export class IdleEnd {
  private last = 0;
  private timer: unknown = null;
  private readonly clock: IdleClock;

  constructor(private readonly o: IdleEndOptions) {
    this.clock = o.clock ?? systemClock;
  }

  /** The thing started (or was used): the period counts from now. */
  touch(): void {
    this.last = this.clock.now();
    if (this.timer === null && this.o.ms > 0) this.arm(this.o.ms);
  }

  /** The thing ended some other way (closed, crashed): no end is pending any more. */
  cancel(): void {
    if (this.timer !== null) this.clock.clear(this.timer);
    this.timer = null;
  }

  private arm(ms: number): void {
    this.timer = this.clock.set(() => this.check(), ms);
  }

  private check(): void {
    this.timer = null;
    if (this.o.canEnd && !this.o.canEnd()) return this.arm(this.o.ms);
    const left = this.last + this.o.ms - this.clock.now();
    if (left > 0) return this.arm(left);
    this.o.end();
  }
}
