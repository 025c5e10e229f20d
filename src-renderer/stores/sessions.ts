import { create } from 'zustand';
import type { Session } from '../../src-main/platform/contract/sessions';
import { executionOutcome } from '../../src-main/platform/contract/executions';
import { api } from '../api';
import { useChatPrefs } from '../features/chat/prefs';

/**
 * The chat's session list. Sessions come from the platform (ext GET /api/sessions), so the list is
 * the same in Electron and in any browser signed in to it: searched and paged by the platform, the
 * sessions schedules started left out when the person hides them.
 */
export type { Session };
export const SESSIONS_SHOWN = 100;

interface SessionsState {
  /** the pages loaded so far, newest first */
  sessions: Session[];
  sessionsTotal: number;
  sessionsQuery: string;
  sessionsError: unknown;
  /** The first page again (or the next: `more`), for `query` when given, else the current search. */
  loadSessions(opts?: { more?: boolean; query?: string }): Promise<void>;
  renameSession(rootId: number, title: string): Promise<void>;
  /** Deletes one; false when the platform refused (the reason is `sessionsError`). The list is not reloaded. */
  removeSession(rootId: number): Promise<boolean>;
  /** A failure to show above the list (a session that could not be opened). */
  showError(err: unknown): void;
}

export const useSessions = create<SessionsState>((set, get) => ({
  sessions: [],
  sessionsTotal: 0,
  sessionsQuery: '',
  sessionsError: null,

  async loadSessions(opts = {}) {
    dropLegacyIndex();
    const query = opts.query ?? get().sessionsQuery;
    const have = opts.more ? get().sessions : [];
    try {
      // Sessions schedules started are left out by the platform when the person hides them (so pages and totals agree).
      const hide = useChatPrefs.getState().hideScheduled;
      const page = await api.sessions.list({ per_page: SESSIONS_SHOWN, page: opts.more ? Math.floor(have.length / SESSIONS_SHOWN) + 1 : 1, q: query.trim() || undefined, scheduled: hide ? 'false' : undefined });
      // A newer search may have started meanwhile: keep only the answer to the current one.
      if (query !== (opts.query ?? get().sessionsQuery) || hide !== useChatPrefs.getState().hideScheduled) return;
      const seen = new Set(have.map((s) => s.id));
      set({ sessions: [...have, ...page.data.filter((s) => !seen.has(s.id))], sessionsTotal: page.total, sessionsQuery: query, sessionsError: null });
    } catch (err) {
      set({ sessionsError: err });
    }
  },

  async renameSession(rootId, title) {
    try {
      const s = await api.sessions.rename(rootId, title);
      set({ sessions: get().sessions.map((x) => (x.id === rootId ? s : x)), sessionsError: null });
    } catch (err) {
      set({ sessionsError: err });
    }
  },

  async removeSession(rootId) {
    try {
      await api.sessions.delete(rootId);
      set({ sessionsError: null });
      return true;
    } catch (err) {
      set({ sessionsError: err });
      return false;
    }
  },

  showError(err) {
    set({ sessionsError: err });
  },
}));

/** Older versions kept a session index in localStorage; the platform's list replaces it. */
export function dropLegacyIndex(): void {
  try {
    localStorage.removeItem('agent-desk.sessions');
  } catch {}
}

/** The turn status the chat shows for an execution status (stored or streamed): the contract's one reading. */
export const turnStatus = executionOutcome;
