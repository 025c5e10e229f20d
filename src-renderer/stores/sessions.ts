import type { Session } from '../../src-main/platform/contract/sessions';
import { executionOutcome } from '../../src-main/platform/contract/executions';

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

/** The turn status the chat shows for an execution status (stored or streamed): the contract's one reading. */
export const turnStatus = executionOutcome;
