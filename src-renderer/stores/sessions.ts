import { create } from 'zustand';
import type { Session, SessionOptions } from '../../src-main/platform/contract/sessions';
import { executionOutcome } from '../../src-main/platform/contract/executions';
import { api, ops } from '../api';
import { useChatPrefs } from './chat-prefs';

/**
 * The chat's session list. Sessions come from the platform (ext GET /api/sessions), so the list is
 * the same in Electron and in any browser signed in to it: searched and paged by the platform, the
 * sessions schedules started left out when the person hides them. Pinned ones come first (the
 * platform orders them); archived ones are out of the chats view, in the Archived view, and found
 * by a search (which looks through every conversation).
 */
export type { Session, SessionOptions };
export type SessionView = 'chats' | 'archived';
/** What PATCH /api/sessions/{id} takes. */
export type SessionChange = Partial<Pick<Session, 'title' | 'pinned' | 'archived'>> & { instructions?: string | null; options?: SessionOptions | null };
export const SESSIONS_SHOWN = 100;

interface SessionsState {
  /** the pages loaded so far, newest first */
  sessions: Session[];
  sessionsTotal: number;
  sessionsQuery: string;
  sessionsError: unknown;
  /** how many of `sessions` came from the pinned list (they lead it; paging counts the others) */
  pinnedShown: number;
  /** the list has been read at least once (until then, a session missing from it may just not be read yet) */
  listedOnce: boolean;
  /** the chats, or the archived ones (a search looks through both) */
  view: SessionView;
  setView(view: SessionView): void;
  /** Pin, archive, or set a session's own instructions and options; the session as stored, or null when refused (the reason is `sessionsError`). */
  updateSession(rootId: number, change: SessionChange): Promise<Session | null>;
  /**
   * Instructions written for a new chat before its first message: sent with that message (as its
   * developer message) and stored with the session once the platform names it (`settleNew`).
   */
  pendingInstructions: string | null;
  setPendingInstructions(text: string | null): void;
  /** The new chat was named: its pending instructions are stored with it. */
  settleNew(rootId: number): Promise<void>;
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
  view: 'chats',
  pinnedShown: 0,
  listedOnce: false,
  pendingInstructions: null,

  setPendingInstructions(text) {
    set({ pendingInstructions: text?.trim() ? text : null });
  },

  async settleNew(rootId) {
    const instructions = get().pendingInstructions;
    if (!instructions) return;
    set({ pendingInstructions: null });
    await get().updateSession(rootId, { instructions });
  },

  setView(view) {
    if (view === get().view) return;
    set({ view, sessions: [], sessionsTotal: 0, pinnedShown: 0 });
    void get().loadSessions();
  },

  async updateSession(rootId, change) {
    try {
      const s = await api.call(ops.renameSession, { params: { id: rootId }, body: change });
      const moved = change.pinned !== undefined || change.archived !== undefined;
      set({ sessions: get().sessions.map((x) => (x.id === rootId ? s : x)), sessionsError: null });
      // Pinning reorders the list and archiving moves a session between views: read it again.
      if (moved) void get().loadSessions();
      return s;
    } catch (err) {
      set({ sessionsError: err });
      return null;
    }
  },

  async loadSessions(opts = {}) {
    dropLegacyIndex();
    const query = opts.query ?? get().sessionsQuery;
    const have = opts.more ? get().sessions : [];
    const view = get().view;
    try {
      // Sessions schedules started are left out by the platform when the person hides them (so pages and totals agree).
      const hide = useChatPrefs.getState().hideScheduled;
      // A search looks through every conversation, archived ones too; the list shows one view.
      const archived = query.trim() ? undefined : view === 'archived' ? 'true' : 'false';
      const base = { q: query.trim() || undefined, scheduled: hide ? ('false' as const) : undefined, archived };
      // Pinned ones first: asked for apart (the platform lists newest activity first), then the
      // others a page at a time. A search lists its hits in one order, newest first.
      const split = !query.trim();
      const pinnedNow = opts.more ? get().pinnedShown : 0;
      const [pinned, page] = await Promise.all([
        split && !opts.more ? api.call(ops.listSessions, { query: { ...base, pinned: 'true', per_page: SESSIONS_SHOWN, page: 1 } }) : null,
        api.call(ops.listSessions, {
          query: { ...base, ...(split ? { pinned: 'false' as const } : {}), per_page: SESSIONS_SHOWN, page: opts.more ? Math.floor((have.length - pinnedNow) / SESSIONS_SHOWN) + 1 : 1 },
        }),
      ]);
      // A newer search (or view) may have started meanwhile: keep only the answer to the current one.
      if (query !== (opts.query ?? get().sessionsQuery) || hide !== useChatPrefs.getState().hideScheduled || view !== get().view) return;
      const first = pinned?.data ?? [];
      const seen = new Set([...have, ...first].map((s) => s.id));
      const pinnedShown = opts.more ? pinnedNow : first.length;
      set({
        sessions: [...have, ...first, ...page.data.filter((s) => !seen.has(s.id))],
        sessionsTotal: page.total + (opts.more ? pinnedNow : (pinned?.total ?? 0)),
        pinnedShown,
        listedOnce: true,
        sessionsQuery: query,
        sessionsError: null,
      });
    } catch (err) {
      set({ sessionsError: err });
    }
  },

  async renameSession(rootId, title) {
    try {
      const s = await api.call(ops.renameSession, { params: { id: rootId }, body: { title } });
      set({ sessions: get().sessions.map((x) => (x.id === rootId ? s : x)), sessionsError: null });
    } catch (err) {
      set({ sessionsError: err });
    }
  },

  async removeSession(rootId) {
    try {
      await api.call(ops.deleteSession, { params: { id: rootId } });
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

/** The developer message a new chat's first request carries: the instructions written for it, if any. */
export function newChatDeveloper(rootId: number | null): { role: 'developer'; content: string }[] {
  const text = rootId === null ? useSessions.getState().pendingInstructions : null;
  return text ? [{ role: 'developer', content: text }] : [];
}

/** Older versions kept a session index in localStorage; the platform's list replaces it. */
export function dropLegacyIndex(): void {
  try {
    localStorage.removeItem('agent-desk.sessions');
  } catch {}
}

/** The turn status the chat shows for an execution status (stored or streamed): the contract's one reading. */
export const turnStatus = executionOutcome;
