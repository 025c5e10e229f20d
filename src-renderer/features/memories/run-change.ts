import { toast } from '../../stores/toasts';

/**
 * Runs one change of the Memories screen: on success the error clears, a toast says what was
 * done and the screen reloads; on failure the error is kept for the screen to show under the thing.
 */
export async function runChange(fn: () => Promise<unknown>, done: string, on: { setError(err: unknown): void; changed(): Promise<void> }): Promise<boolean> {
  try {
    await fn();
    on.setError(null);
    toast(done);
    await on.changed();
    return true;
  } catch (err) {
    on.setError(err);
    return false;
  }
}
