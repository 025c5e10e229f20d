import { lazy, type ComponentType } from 'react';
import { useConnection, whenConnected } from '../stores/connection';

/** A screen loaded when first opened reloads the page at most once for a missing part (a newer build): the key marks that. */
const RELOADED = 'agent-desk.reloaded-for-part';

/**
 * A screen loaded when it is first opened. When its code cannot be fetched because the platform
 * is out of reach, it waits until the platform answers and tries again, instead of failing the
 * whole window; a part missing while the platform answers (a newer build) reloads the page once.
 */
export function lazyScreen<T extends ComponentType<object>>(load: () => Promise<{ default: T }>) {
  return lazy(async () => {
    for (let failures = 0; ; failures++) {
      try {
        const m = await load();
        sessionStorage.removeItem(RELOADED);
        return m;
      } catch (err) {
        useConnection.getState().report();
        await whenConnected();
        if (failures >= 2) {
          if (sessionStorage.getItem(RELOADED)) throw err;
          sessionStorage.setItem(RELOADED, '1');
          location.reload();
          await new Promise(() => {});
        }
      }
    }
  });
}
