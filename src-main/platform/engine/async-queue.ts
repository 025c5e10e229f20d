/** A push-to-pull bridge: callbacks push values, one consumer iterates them; end or fail closes it. */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | null = null;
  private done = false;
  private error: unknown = null;

  push(v: T): void {
    this.items.push(v);
    this.wake();
  }

  end(): void {
    this.done = true;
    this.wake();
  }

  fail(err: unknown): void {
    this.error = err ?? new Error('failed');
    this.done = true;
    this.wake();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.items.length) {
        yield this.items.shift()!;
        continue;
      }
      if (this.error) throw this.error;
      if (this.done) return;
      await new Promise<void>((r) => (this.waiter = r));
    }
  }
}
