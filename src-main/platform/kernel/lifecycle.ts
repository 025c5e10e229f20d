/** Work to finish before the database closes (let running executions end, stop extraction...). */
export type ShutdownHook = () => Promise<void> | void;

/**
 * What a module needs to know of the process it lives in: whether it owns the data dir's
 * background work (only one process does), and where to register work to finish at shutdown.
 */
export interface Lifecycle {
  readonly primary: boolean;
  /** `first` hooks run before the others (executions must end before the queue stops). */
  onShutdown(hook: ShutdownHook, opts?: { first?: boolean }): void;
}

/** `primary` is read when asked: a secondary process becomes primary when it inherits the data dir. */
export function lifecycleOf(hooks: ShutdownHook[], primary: () => boolean): Lifecycle {
  return {
    get primary() {
      return primary();
    },
    onShutdown: (hook, opts) => (opts?.first ? hooks.unshift(hook) : hooks.push(hook)),
  };
}
