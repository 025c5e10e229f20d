/**
 * Tool calls waiting for a person: answered through the API (approve/deny) or denied when the
 * wait runs out, so an unattended client never hangs. The clock is injectable for tests.
 */
export interface Clock {
  /** runs `fn` after `ms`; returns a cancel function */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  after(ms, fn) {
    const t = setTimeout(fn, ms);
    t.unref();
    return () => clearTimeout(t);
  },
};

export const APPROVAL_TIMEOUT_MS = 120_000;

export type Decision = 'allow' | 'always' | 'deny';

interface Pending {
  userId: number;
  serverId: number;
  tool: string;
  settle(d: Decision | 'timeout'): void;
}

export class Approvals {
  clock: Clock = realClock;
  timeoutMs = APPROVAL_TIMEOUT_MS;
  private readonly pending = new Map<string, Pending>();

  private key(executionId: number, stepId: number): string {
    return `${executionId}:${stepId}`;
  }

  /** Waits for a decision; a canceled execution rejects at once with the signal's reason. */
  wait(executionId: number, stepId: number, meta: { userId: number; serverId: number; tool: string }, signal: AbortSignal): Promise<Decision | 'timeout'> {
    const key = this.key(executionId, stepId);
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      let cancelTimer = () => {};
      const onAbort = () => {
        cleanup();
        reject(signal.reason);
      };
      const cleanup = () => {
        this.pending.delete(key);
        cancelTimer();
        signal.removeEventListener('abort', onAbort);
      };
      this.pending.set(key, {
        ...meta,
        settle: (d) => {
          cleanup();
          resolve(d);
        },
      });
      cancelTimer = this.clock.after(this.timeoutMs, () => this.pending.get(key)?.settle('timeout'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The step waiting, if any (the caller checks the execution is the user's). */
  waiting(executionId: number, stepId: number): Pending | undefined {
    return this.pending.get(this.key(executionId, stepId));
  }

  answer(executionId: number, stepId: number, d: Decision): boolean {
    const p = this.pending.get(this.key(executionId, stepId));
    if (!p) return false;
    p.settle(d);
    return true;
  }
}
