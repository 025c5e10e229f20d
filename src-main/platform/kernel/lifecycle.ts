/** Work to finish before the database closes (let running executions end, stop extraction...). */
export type ShutdownHook = () => Promise<void> | void;

/** Background work only the data dir's owner runs (recovery, queues, clean-up, embedding...). */
export type OwnerWork = () => void;

/**
 * What a module needs to know of the process it lives in: whether it owns the data dir's
 * background work (only one process does), where to register that work, and where to register
 * work to finish at shutdown.
 */
export interface Lifecycle {
  readonly primary: boolean;
  /**
   * Runs `work` when this process owns the data dir: once the platform is built if it owns it
   * from the start, else when it takes the data dir over from an owner that exited. The one way
   * to start background work, so start-up and take-over cannot start different things.
   */
  onPrimary(work: OwnerWork): void;
  /** `first` hooks run before the others (executions must end before the queue stops). */
  onShutdown(hook: ShutdownHook, opts?: { first?: boolean }): void;
}

export interface OwnedLifecycle extends Lifecycle {
  /**
   * Called by the composition root once everything is wired and this process owns the data dir
   * (at start-up or at take-over): runs the owner work registered so far, in order, and from then
   * on runs new registrations at once. Runs once; a failing piece is reported and the rest still run.
   */
  becomeOwner(): void;
}

/** `primary` is read when asked: a secondary process becomes primary when it inherits the data dir. */
export function lifecycleOf(hooks: ShutdownHook[], primary: () => boolean, onError: (err: unknown) => void): OwnedLifecycle {
  const pending: OwnerWork[] = [];
  let owner = false;
  const run = (work: OwnerWork) => {
    try {
      work();
    } catch (err) {
      onError(err);
    }
  };
  return {
    get primary() {
      return primary();
    },
    onPrimary(work) {
      if (owner) run(work);
      else pending.push(work);
    },
    becomeOwner() {
      if (owner) return;
      owner = true;
      for (const work of pending.splice(0)) run(work);
    },
    onShutdown: (hook, opts) => (opts?.first ? hooks.unshift(hook) : hooks.push(hook)),
  };
}
