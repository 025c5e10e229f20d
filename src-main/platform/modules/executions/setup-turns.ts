/**
 * When a new run's set-up (its context, its call to the model) may begin: one loop iteration after
 * it was started (start() answers first), at most `perIteration` of them per iteration, first come
 * first served; the others wait for the next iterations. Under 200 streams runs end and start
 * again in bursts: 40 set-ups in one check phase held the loop for tens of ms, and every short
 * request that arrived meanwhile waited for all of them. Spread over iterations, each iteration's
 * poll phase (those requests, the streams' I/O) comes between them. A set-up that waits only
 * delays its run's first text: the stream's first event is already sent.
 */
export class SetupTurns {
  private readonly waiting: (() => void)[] = [];
  private pumping = false;

  constructor(private readonly perIteration: number) {}

  /** Resolves when this set-up may begin. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.pumping) return;
      this.pumping = true;
      // One whole iteration later (as kernel/turns.ts nextIteration): start()'s answer goes out first.
      setImmediate(() => setImmediate(() => this.pump()));
    });
  }

  /** In a check phase: lets the first ones begin (their work runs right after, as microtasks), the rest next iteration. */
  private pump(): void {
    for (const resolve of this.waiting.splice(0, this.perIteration)) resolve();
    if (this.waiting.length) setImmediate(() => this.pump());
    else this.pumping = false;
  }
}
