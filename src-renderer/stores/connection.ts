import { create } from 'zustand';
import { useAuth } from './auth';
import { backoffDelay } from '../../src-main/platform/kernel/backoff';
import { appOperations } from '../../src-main/platform/contract/app-settings';
import { urlOf } from '../api/client';

/**
 * Browser mode: whether the page can reach the platform that served it. A request that cannot
 * reach it (the server stopped, the network dropped) marks the connection lost; the page then
 * asks again, less and less often, until the platform answers: the banner clears itself, and a
 * platform that no longer knows this browser's session shows the sign-in notice.
 */
interface ConnectionState {
  lost: boolean;
  /** A request could not reach the platform. */
  report(): void;
}

/** Waits between tries, the last repeated. */
const WAITS_MS = [500, 1000, 2000, 4000, 8000];

let tries = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
const waiting = new Set<() => void>();
/** The page's own fetch, before the watch below wraps it. */
let plainFetch: typeof fetch | null = null;

export const useConnection = create<ConnectionState>((set, get) => ({
  lost: false,
  report() {
    if (get().lost) return;
    set({ lost: true });
    tries = 0;
    schedule();
  },
}));

function back(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  if (!useConnection.getState().lost) return;
  useConnection.setState({ lost: false });
  for (const w of [...waiting]) w();
  waiting.clear();
}

function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void probe(), backoffDelay({ waits: WAITS_MS }, tries++));
}

async function probe(): Promise<void> {
  try {
    const res = await (plainFetch ?? fetch)(urlOf(appOperations.getApp), { credentials: 'same-origin', headers: { 'x-agent-desk': '1' }, cache: 'no-store' });
    // Back, but this browser's session is gone (the platform was reset): sign in again.
    if (res.status === 401) useAuth.getState().markSignedOut();
    back();
  } catch {
    if (useConnection.getState().lost) schedule();
  }
}

/** Resolves once the platform answers again (at once when it was never lost). */
export function whenConnected(): Promise<void> {
  if (!useConnection.getState().lost) return Promise.resolve();
  return new Promise((resolve) => waiting.add(resolve));
}

const sameOrigin = (input: RequestInfo | URL): boolean => {
  try {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
    return url.origin === location.origin;
  } catch {
    return false;
  }
};

/**
 * Watches the page's requests to its own platform: one that fails to reach it reports the
 * connection lost; any answer while lost means it is back. A script or style of the app that
 * fails to load (Vite's preload error) counts as a lost connection too, never a blank window.
 */
export function watchConnection(): void {
  if (plainFetch || typeof window === 'undefined') return;
  const original = window.fetch.bind(window);
  plainFetch = original;
  window.fetch = async (input, init) => {
    try {
      const res = await original(input, init);
      if (useConnection.getState().lost && sameOrigin(input)) back();
      return res;
    } catch (err) {
      if (err instanceof TypeError && sameOrigin(input)) useConnection.getState().report();
      throw err;
    }
  };
  window.addEventListener('vite:preloadError', () => useConnection.getState().report());
}
