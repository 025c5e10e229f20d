/**
 * What one provider stream may take: an overall deadline, a silence limit that only real
 * progress resets (text or tool-call bytes, never SSE comments, pings or empty deltas), and byte
 * caps on text, on tool-call bytes and on one stream event. A hostile or broken provider then
 * ends the execution with a clear reason instead of holding it open or filling the memory.
 */
import { ProviderError, type ProviderEvent } from './types.js';

/** Time as the guard sees it; tests pass a manual clock so that nothing waits on the wall. */
export interface StreamClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: StreamClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface StreamLimits {
  /** no progress for this long ends the stream (a provider that never answers, too) */
  idleMs?: number;
  /** the whole stream, from the request to the last byte */
  deadlineMs?: number;
  /** text of one answer */
  maxTextBytes?: number;
  /** tool-call names, ids and arguments of one answer, all calls together */
  maxToolBytes?: number;
  /** tool calls in one answer */
  maxToolCalls?: number;
  /** one server-sent event (or a line that never ends) */
  maxEventBytes?: number;
  clock?: StreamClock;
}

const MB = 1024 * 1024;

export const DEFAULT_STREAM_LIMITS = {
  idleMs: 120_000,
  deadlineMs: 10 * 60_000,
  maxTextBytes: 16 * MB,
  maxToolBytes: 4 * MB,
  maxToolCalls: 64,
  maxEventBytes: 8 * MB,
} as const;

type Resolved = Required<Omit<StreamLimits, 'clock'>> & { clock: StreamClock };

const positive = (v: number | undefined): v is number => typeof v === 'number' && v > 0;

export function resolveLimits(l: StreamLimits = {}, fallbackIdleMs?: number): Resolved {
  const d = DEFAULT_STREAM_LIMITS;
  return {
    idleMs: positive(l.idleMs) ? l.idleMs : positive(fallbackIdleMs) ? fallbackIdleMs : d.idleMs,
    deadlineMs: positive(l.deadlineMs) ? l.deadlineMs : d.deadlineMs,
    maxTextBytes: positive(l.maxTextBytes) ? l.maxTextBytes : d.maxTextBytes,
    maxToolBytes: positive(l.maxToolBytes) ? l.maxToolBytes : d.maxToolBytes,
    maxToolCalls: positive(l.maxToolCalls) ? l.maxToolCalls : d.maxToolCalls,
    maxEventBytes: positive(l.maxEventBytes) ? l.maxEventBytes : d.maxEventBytes,
    clock: l.clock ?? realClock,
  };
}

/** The limits the environment sets (seconds): AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S, AGENT_DESK_PROVIDER_DEADLINE_S. */
export function streamLimitsFromEnv(env: Record<string, string | undefined>): StreamLimits {
  const seconds = (name: string) => {
    const v = Number(env[name]);
    return Number.isFinite(v) && v > 0 ? v * 1000 : undefined;
  };
  const out: StreamLimits = {};
  const idle = seconds('AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S');
  const deadline = seconds('AGENT_DESK_PROVIDER_DEADLINE_S');
  if (idle) out.idleMs = idle;
  if (deadline) out.deadlineMs = deadline;
  return out;
}

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6000) / 10} minutes`;
}

function size(bytes: number): string {
  return bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
// A timer longer than this fires at once in Node (it overflows to 1 ms).
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One stream's watch. Its `signal` ends when the caller cancels or a limit is passed; the
 * provider sends its request with it, so ending it closes the connection. `watch()` wraps the
 * provider's events: it counts text, turns the abort a limit caused into the limit's own
 * ProviderError, and always stops the timers.
 */
export class StreamGuard {
  readonly limits: Resolved;
  private readonly ctl = new AbortController();
  readonly signal: AbortSignal = this.ctl.signal;
  private reason: ProviderError | null = null;
  private started = false;
  private closed = false;
  private startedAt = 0;
  private lastProgress = 0;
  private idleTimer: unknown = null;
  private deadlineTimer: unknown = null;
  private answered = false;
  /** chunks that were no progress (comments, pings, empty deltas) since the last progress */
  private quiet = 0;
  private textBytes = 0;
  private toolBytes = 0;

  constructor(
    /** the provider as sentences name it ("the OpenAI-compatible provider") */
    readonly what: string,
    private readonly caller: AbortSignal,
    limits?: StreamLimits,
    opts: { fallbackIdleMs?: number; start?: boolean } = {},
  ) {
    this.limits = resolveLimits(limits, opts.fallbackIdleMs);
    if (caller.aborted) this.ctl.abort(caller.reason);
    else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    if (opts.start !== false) this.start();
  }

  private readonly onCallerAbort = () => this.ctl.abort(this.caller.reason);

  /** The limit that ended the stream, or null while it may go on. */
  get ended(): ProviderError | null {
    return this.reason;
  }

  /** Arms the timers (a local engine starts them when its turn comes, not while it waits). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    const { clock, deadlineMs } = this.limits;
    this.startedAt = this.lastProgress = clock.now();
    if (deadlineMs <= MAX_TIMER_MS) {
      this.deadlineTimer = clock.setTimeout(() => this.end(new ProviderError(`${upper(this.what)} did not finish its answer within ${duration(deadlineMs)} (the limit for one answer); Agent Desk stopped waiting.`, 'provider_timeout')), deadlineMs);
    }
    this.armIdle(this.limits.idleMs);
  }

  private armIdle(ms: number): void {
    if (ms > MAX_TIMER_MS || this.closed) return;
    this.idleTimer = this.limits.clock.setTimeout(() => {
      this.idleTimer = null;
      const quietFor = this.limits.clock.now() - this.lastProgress;
      if (quietFor >= this.limits.idleMs) this.end(this.idleError());
      else this.armIdle(this.limits.idleMs - quietFor);
    }, ms);
  }

  private idleError(): ProviderError {
    const { idleMs } = this.limits;
    const what = upper(this.what);
    if (!this.answered) return new ProviderError(`${what} did not answer within ${duration(idleMs)}; gave up.`, 'provider_timeout');
    if (this.quiet > 0) return new ProviderError(`${what} sent only keep-alive messages and no text for ${duration(idleMs)}; gave up.`, 'provider_timeout');
    return new ProviderError(`${what} sent nothing for ${duration(idleMs)}; gave up.`, 'provider_timeout');
  }

  /** Ends the stream for a reason (the first reason wins) and closes the connection. */
  end(reason: ProviderError): void {
    if (this.reason) return;
    this.reason = reason;
    this.stopTimers();
    this.ctl.abort(reason);
  }

  /** Throws the limit's error once one was passed. */
  check(): void {
    if (this.reason) throw this.reason;
  }

  /** The provider answered (headers arrived): silence from here on is "sent nothing", not "did not answer". */
  answer(): void {
    this.answered = true;
  }

  /** Bytes arrived that are no progress (an SSE comment, a ping, an empty delta). Does not reset the idle timer. */
  activity(): void {
    this.quiet++;
    if (this.started && !this.reason && this.limits.clock.now() - this.lastProgress >= this.limits.idleMs) this.end(this.idleError());
    this.check();
  }

  private progress(): void {
    this.quiet = 0;
    this.lastProgress = this.limits.clock.now();
  }

  /** Counts answer text (progress); throws at the cap. */
  text(s: string): void {
    if (!s) return;
    this.textBytes += Buffer.byteLength(s);
    if (this.textBytes > this.limits.maxTextBytes) {
      this.end(new ProviderError(`${upper(this.what)} sent more than ${size(this.limits.maxTextBytes)} of text in one answer; Agent Desk stopped it.`, 'output_too_long'));
    }
    this.check();
    this.progress();
  }

  /** Output the provider does not keep (reasoning text): progress for the idle timer, no bytes held. */
  progressed(s: string): void {
    if (s) this.progress();
  }

  /** Counts tool-call bytes (progress) and returns them; throws at the cap. */
  tool(s: string): string {
    if (!s) return s;
    this.toolBytes += Buffer.byteLength(s);
    if (this.toolBytes > this.limits.maxToolBytes) {
      this.end(new ProviderError(`${upper(this.what)} sent more than ${size(this.limits.maxToolBytes)} of tool-call arguments in one answer; Agent Desk stopped it.`, 'tool_call_too_long'));
    }
    this.check();
    this.progress();
    return s;
  }

  /** Throws when an answer holds more tool calls than allowed. */
  toolCalls(count: number): void {
    if (count > this.limits.maxToolCalls) {
      this.end(new ProviderError(`${upper(this.what)} asked for more than ${this.limits.maxToolCalls} tool calls in one answer; Agent Desk stopped it.`, 'tool_limit'));
    }
    this.check();
  }

  /** An event larger than the cap (or a line that never ends). */
  eventTooLarge(): ProviderError {
    this.end(new ProviderError(`${upper(this.what)} sent one stream event larger than ${size(this.limits.maxEventBytes)}; Agent Desk stopped it.`, 'provider_error'));
    return this.reason!;
  }

  private stopTimers(): void {
    if (this.idleTimer !== null) this.limits.clock.clearTimeout(this.idleTimer);
    if (this.deadlineTimer !== null) this.limits.clock.clearTimeout(this.deadlineTimer);
    this.idleTimer = this.deadlineTimer = null;
  }

  /** Stops the timers; `early` (an error or the consumer stopped) also ends the request. */
  close(early: boolean): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    this.caller.removeEventListener('abort', this.onCallerAbort);
    if (early && !this.ctl.signal.aborted) this.ctl.abort(new DOMException('The stream was closed.', 'AbortError'));
  }

  /** How long the stream has run (for figures and messages). */
  elapsedMs(): number {
    return this.started ? this.limits.clock.now() - this.startedAt : 0;
  }

  /**
   * The provider's events, under the limits: text is counted (and is progress), a limit passed
   * ends the stream with its own error even when events are still buffered, and the abort a
   * limit caused surfaces as that limit's error, not as a cancel.
   */
  async *watch(source: AsyncIterable<ProviderEvent>): AsyncGenerator<ProviderEvent> {
    let finished = false;
    try {
      for await (const ev of source) {
        this.check();
        if (ev.type === 'text') this.text(ev.text);
        else if (ev.type === 'tool_calls') this.toolCalls(ev.calls.length);
        yield ev;
      }
      this.check();
      finished = true;
    } catch (err) {
      throw this.reason ?? err;
    } finally {
      this.close(!finished);
    }
  }
}
