import { isFinished, streamStatus, type ExecutionContext, type ExecutionEvent, type ExecutionStatus } from '../../contract/executions.js';
import { isoMicros, nowMicros } from '../../kernel/time.js';
import type { ToolStep } from '../../contract/tools.js';

/**
 * The in-memory state of a running execution. Its whole output so far is kept, so a subscriber
 * that starts late (or reads slowly) gets everything: each event carries the text since that
 * subscriber's previous event, deltas coalescing while it was busy.
 */
export class LiveExecution {
  status: ExecutionStatus = 'starting';
  output = '';
  /** when the first text arrived (microseconds), for the answer's speed */
  firstTokenAt: number | null = null;
  error: { message: string; code: string } | null = null;
  credits: number;
  updatedAt: number;
  provider: string | null = null;
  /** the memories and passages the model was given (stored with the final record) */
  context: ExecutionContext | null = null;
  /** ext: the run's tool calls, changed in place while they run */
  steps: ToolStep[] = [];
  /** bumped on every step change: a stream sends an event for it */
  stepsVersion = 0;
  readonly abort = new AbortController();
  /** why it was aborted: a user's cancel, or shutdown */
  abortReason: 'cancel' | 'shutdown' | null = null;
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private waiters: (() => void)[] = [];

  constructor(
    readonly id: number,
    readonly agentId: number,
    readonly userId: number,
    readonly rootId: number,
    readonly createdAt: number,
    baseCredits: number,
  ) {
    this.credits = baseCredits;
    this.updatedAt = createdAt;
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  get terminal(): boolean {
    return isFinished(this.status);
  }

  /** Wakes every subscriber waiting for news. */
  notify(): void {
    this.updatedAt = nowMicros();
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
    if (this.terminal) this.resolveDone();
  }

  private changed(): Promise<void> {
    return new Promise((r) => this.waiters.push(r));
  }

  private event(status: string, output: string, final: boolean): ExecutionEvent {
    return {
      id: this.id,
      status,
      output,
      error: final ? this.error : null,
      credits: final ? this.credits : null,
      root_id: this.rootId,
      created_at: isoMicros(this.createdAt),
      updated_at: isoMicros(this.updatedAt),
      template_id: this.agentId,
      // ext: a copy, so an event already handed out does not change under its reader
      ...(this.steps.length ? { steps: this.steps.map((s) => ({ ...s })) } : {}),
    };
  }

  /**
   * Stream events: a first `running` event at once (the client learns the id), `running` events
   * with the text since the previous one, then one final event: `completed` (empty output, numeric
   * credits), `failed` or `canceled` (with `error`).
   */
  async *events(): AsyncGenerator<ExecutionEvent> {
    for await (const f of this.frames(0, true)) yield f.data;
  }

  /**
   * The events of `events()`, each with its sequence number: the length of the output a reader
   * holds once it has that event. A reader that already holds `from` characters (a re-attached
   * stream's Last-Event-ID) gets the text after them, so it never sees a character twice.
   * `announce`: the first event comes at once, even without news.
   */
  async *frames(from: number, announce: boolean): AsyncGenerator<{ id: number; data: ExecutionEvent }> {
    let sent = from;
    let first = announce;
    let seenSteps = 0;
    for (;;) {
      const wait = this.terminal ? null : this.changed();
      const out = this.output;
      if (out.length > sent || first || (this.stepsVersion !== seenSteps && !this.terminal)) {
        seenSteps = this.stepsVersion;
        yield { id: out.length, data: this.event('running', out.slice(sent), false) };
        sent = out.length;
        first = false;
      }
      if (!wait) {
        yield { id: sent, data: this.event(streamStatus(this.status), '', true) };
        return;
      }
      await wait;
    }
  }
}
