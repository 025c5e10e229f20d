import type { Session } from '../../src-main/platform/contract/sessions';

/**
 * Chat sessions come from the platform (ext GET /api/sessions), so the list is the same in
 * Electron and in any browser signed in to it. The app shows the most recent page of them.
 */
export type { Session };
export const SESSIONS_SHOWN = 100;

/** Older versions kept a session index in localStorage; the platform's list replaces it. */
export function dropLegacyIndex(): void {
  try {
    localStorage.removeItem('agent-desk.sessions');
  } catch {}
}

/** The turn status the chat shows for a stored execution status. */
export function turnStatus(status: string): 'running' | 'succeeded' | 'failed' | 'canceled' {
  return status === 'succeeded' || status === 'completed' ? 'succeeded' : status === 'failed' ? 'failed' : status === 'canceled' ? 'canceled' : 'running';
}
