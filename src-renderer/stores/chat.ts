import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, messageOf, type ExecutionEvent } from '../api';
import type { ExecuteBody } from '../api/client';
import { ApiError } from '../api/errors';
import { noteAuth } from './note-auth';
import { useAgents } from './agents';
import { dropLegacyIndex, SESSIONS_SHOWN, turnStatus, type Session } from './sessions';
import { mainTextQuestion, type Answers } from '../features/chat/answers';
import { ROOT, pathOf, type Turn } from '../features/chat/tree';
import { conversationAnswers, draftAnswers, saveAnswers, savedAnswers } from './chat-answers';
import { drop, dropAll, follow, isTerminal, track, untrack } from './chat-streams';
import { forget, newAttachment, sendable, upload, type Attachment } from './chat-attachments';
import { useChatPrefs } from '../features/chat/prefs';

export type { Turn, Attachment };

interface ChatState {
  agentId: number | null;
  /** for agents that are not chats: the question the composer's text answers */
  mainQuestion: string | null;
  /** the open conversation's model and options */
  answers: Answers;
  rootId: number | null;
  /** bumped whenever another conversation (or a new chat) opens: late events of the last one are dropped */
  conv: number;
  /** every turn of the open session, all branches */
  tree: Turn[];
  /** per parent key, the alternative shown */
  chosen: Record<string, string>;
  /** the branch shown: from the first turn to the newest, following `chosen` */
  turns: Turn[];
  /** derived from the tree: an answer of the open conversation is being written */
  busy: boolean;
  sessions: Session[];
  sessionsTotal: number;
  sessionsQuery: string;
  sessionsError: unknown;
  attachments: Attachment[];
  loadingSession: boolean;
  /** bumped on each send: the conversation scrolls the new message into view */
  sentSeq: number;
  /** the turn whose message is being edited in place */
  editing: string | null;
  selectAgent(agent: Agent): void;
  setAnswer(name: string, value: unknown): void;
  send(text: string): Promise<void>;
  regenerate(turnKey?: string): Promise<void>;
  resend(turnKey: string, text: string): Promise<void>;
  choose(turnKey: string): void;
  setEditing(turnKey: string | null): void;
  stop(): Promise<void>;
  newSession(): void;
  loadSessions(opts?: { more?: boolean; query?: string }): Promise<void>;
  renameSession(rootId: number, title: string): Promise<void>;
  openSession(rootId: number, agent?: Agent): Promise<void>;
  deleteSession(rootId: number): Promise<void>;
  attach(files: File[]): Promise<void>;
  /** Sends a failed attachment's file again. */
  retry(key: string): Promise<void>;
  detach(key: string): void;
}

let seq = 0;
const key = () => `t${Date.now().toString(36)}${seq++}`;
const execKey = (id: number) => `e${id}`;
const isLive = (t: Turn) => t.status === 'pending' || t.status === 'running';

const blank = (user: string, parent: string, attachments: Turn['attachments'] = []): Turn => ({
  key: key(),
  parent,
  user,
  attachments,
  responseId: null,
  output: '',
  status: 'pending',
  error: null,
  credits: null,
  model: null,
  at: null,
  lastTextAt: null,
});

export const useChat = create<ChatState>((set, get) => {
  /** Sets the tree (and what is chosen), and what derives from them: the shown branch, busy. */
  const setTree = (tree: Turn[], chosen = get().chosen) => set({ tree, chosen, turns: pathOf(tree, chosen), busy: tree.some(isLive) });
  const turnOf = (k: string) => get().tree.find((t) => t.key === k);
  const patchTurn = (k: string, patch: Partial<Turn> | ((t: Turn) => Partial<Turn>)) =>
    setTree(get().tree.map((t) => (t.key === k ? { ...t, ...(typeof patch === 'function' ? patch(t) : patch) } : t)));

  /** Leaves the open conversation: its answers keep running in the platform, only reading them here stops. */
  const leave = () => {
    dropAll();
    set({ conv: get().conv + 1, editing: null });
  };

  /**
   * One event of turn `k`'s answer, from the execute stream or a re-attached one. `replace`: the
   * event holds the whole text so far (the first event of a re-attached stream).
   */
  const apply = (k: string, conv: number, e: ExecutionEvent, replace: boolean) => {
    if (get().conv !== conv) return;
    const t = turnOf(k);
    if (!t) return;
    const status = turnStatus(e.status);
    const text = e.status === 'running' ? e.output : '';
    patchTurn(k, {
      responseId: e.id,
      status,
      output: replace ? text : t.output + text,
      credits: e.credits ?? t.credits,
      // Stopped by the person is not an error (UX.md): the partial text stays, without a red box.
      error: status === 'canceled' ? null : (e.error ?? null),
      at: t.at ?? e.created_at,
      // Timed by this page's clock (the one that counts the stall), from when the text arrived here.
      lastTextAt: text || replace || !t.lastTextAt ? new Date().toISOString() : t.lastTextAt,
      waiting: !!e.steps?.some((s) => s.status === 'awaiting_approval'),
    });
    // Stop was pressed before the platform named the answer: tell it now.
    if (t.stopWanted && t.responseId === null && !isTerminal(e)) void api.executions.cancel(e.id).catch(noteAuth);
    // The first event names the session (a new root starts one): show it in the list at once.
    if (t.responseId === null && get().rootId === null) {
      set({ rootId: e.root_id ?? e.id });
      void get().loadSessions();
    }
  };

  /** The end of turn `k`'s answer: its last event (or why none came), then the stored record (model, final text). */
  const finish = async (k: string, conv: number, last: ExecutionEvent | null, failure: unknown) => {
    if (get().conv !== conv || !turnOf(k)) return;
    if (failure) {
      noteAuth(failure);
      const missing = failure instanceof ApiError && failure.notAvailable;
      const message = missing ? 'Running agents is not available on this version of the platform.' : messageOf(failure);
      patchTurn(k, { status: 'failed', error: { message, code: failure instanceof ApiError ? failure.code : undefined } });
    } else if (!last) {
      patchTurn(k, { status: 'failed', error: { message: 'The answer could not be followed: the platform stopped answering. Reload to see where it is.' } });
    } else if (!isTerminal(last)) {
      patchTurn(k, { status: 'failed', error: { message: 'The stream ended before the answer was complete.' } });
    }
    void get().loadSessions();
    const id = turnOf(k)?.responseId;
    if (!id) return;
    try {
      const stored = await api.executions.get(id);
      if (get().conv !== conv) return;
      if (stored.status !== 'running' && stored.status !== 'starting' && stored.status !== 'awaiting_approval') patchTurn(k, { output: stored.output, model: stored.model ?? null, at: stored.created_at });
    } catch {}
  };

  /** Reads turn `k`'s answer from its execution (after a reload, or reopening its conversation). */
  const reattach = async (k: string, id: number) => {
    const conv = get().conv;
    const signal = track(k);
    try {
      const last = await follow(id, null, (e, replace) => apply(k, conv, e, replace), signal);
      await finish(k, conv, last, null);
    } catch (err) {
      if (!signal.aborted) await finish(k, conv, null, err);
    } finally {
      untrack(k, signal);
    }
  };

  /** Streams the answer of `turn` (already in the tree). `where`: the branch fields of the request. */
  const run = async (turn: Turn, fileIds: number[], where: Pick<ExecuteBody, 'parent_id' | 'alternative_of'>) => {
    const { agentId, answers, rootId, mainQuestion, conv } = get();
    if (agentId === null) return;
    const signal = track(turn.key);
    set({ sentSeq: get().sentSeq + 1 });
    // A chat gets the text as its message; another agent as the answer to its main question.
    const body: ExecuteBody = {
      answers: { ...answers, ...(mainQuestion ? { [mainQuestion]: turn.user } : {}), ...(rootId ? { root_id: rootId } : {}) },
      ...(mainQuestion ? {} : { messages: [{ role: 'user' as const, content: turn.user }] }),
      ...(fileIds.length ? { file_ids: fileIds } : {}),
      ...where,
    };
    let last: ExecutionEvent | null = null;
    let failure: unknown = null;
    try {
      last = await api.executions.stream(agentId, body, (e) => apply(turn.key, conv, e, false), signal);
    } catch (err) {
      failure = err;
    }
    try {
      if (signal.aborted) return;
      // The stream broke before its last event (the answer goes on in the platform): follow it
      // again after the text already shown.
      const t = turnOf(turn.key);
      if (!isTerminal(last) && t?.responseId && get().conv === conv) {
        try {
          last = await follow(t.responseId, t.output.length, (e, replace) => apply(turn.key, conv, e, replace), signal);
          failure = null;
        } catch (err) {
          if (signal.aborted) return;
          failure = err;
        }
      }
      await finish(turn.key, conv, last, failure);
    } finally {
      untrack(turn.key, signal);
    }
  };

  /** A new alternative beside `of` (regenerate, or an edited message). */
  const alternative = async (of: Turn, text: string) => {
    const fresh = blank(text, of.parent, of.attachments);
    setTree([...get().tree, fresh], { ...get().chosen, [of.parent]: fresh.key });
    set({ editing: null });
    if (of.responseId !== null) await run(fresh, fresh.attachments.map((a) => a.id), { alternative_of: of.responseId });
    else {
      // Never stored (it failed before the platform took it): continue from its parent instead.
      const parent = turnOf(of.parent);
      await run(fresh, fresh.attachments.map((a) => a.id), parent?.responseId ? { parent_id: parent.responseId } : {});
    }
  };

  /** Uploads attachment `k` and follows its reading; it updates in place while it is still attached. */
  const followUpload = (k: string) =>
    upload(
      k,
      (p) => set({ attachments: get().attachments.map((a) => (a.key === k ? { ...a, ...p } : a)) }),
      () => get().attachments.some((a) => a.key === k),
    );

  return {
    agentId: null,
    mainQuestion: null,
    answers: {},
    rootId: null,
    conv: 0,
    tree: [],
    chosen: {},
    turns: [],
    busy: false,
    sessions: [],
    sessionsTotal: 0,
    sessionsQuery: '',
    sessionsError: null,
    attachments: [],
    loadingSession: false,
    sentSeq: 0,
    editing: null,

    selectAgent(agent) {
      if (get().agentId === agent.id) return;
      leave();
      set({ agentId: agent.id, mainQuestion: composerQuestion(agent), answers: savedAnswers(agent), rootId: null, loadingSession: false });
      setTree([], {});
    },

    setAnswer(name, value) {
      const answers = { ...get().answers, [name]: value };
      set({ answers });
      const { agentId, rootId } = get();
      // The last choice is what a new chat starts with; an open conversation also keeps its own.
      if (agentId !== null) saveAnswers(agentId, answers);
      if (rootId !== null) draftAnswers.set(rootId, answers);
    },

    async send(text) {
      const trimmed = text.trim();
      if (!trimmed || get().busy || get().agentId === null) return;
      // Uploaded and read, or an image still being read (its text comes once read).
      const ready = get().attachments.filter(sendable);
      const path = get().turns;
      const parent = path[path.length - 1];
      const turn = blank(trimmed, parent?.key ?? ROOT, ready.map((a) => ({ id: a.fileId!, name: a.name })));
      set({ attachments: get().attachments.filter((a) => !ready.includes(a)) });
      for (const a of ready) forget(a.key);
      setTree([...get().tree, turn], { ...get().chosen, [turn.parent]: turn.key });
      await run(turn, turn.attachments.map((a) => a.id), parent?.responseId ? { parent_id: parent.responseId } : {});
    },

    async regenerate(turnKey) {
      const turns = get().turns;
      const of = turnKey ? turns.find((t) => t.key === turnKey) : turns[turns.length - 1];
      if (!of || get().busy) return;
      await alternative(of, of.user);
    },

    async resend(turnKey, text) {
      const of = turnOf(turnKey);
      const trimmed = text.trim();
      if (!of || !trimmed || get().busy) return;
      await alternative(of, trimmed);
    },

    choose(turnKey) {
      const t = turnOf(turnKey);
      if (t) setTree(get().tree, { ...get().chosen, [t.parent]: t.key });
    },

    setEditing(turnKey) {
      set({ editing: turnKey });
    },

    async stop() {
      const running = [...get().turns].reverse().find(isLive);
      if (!running) return;
      // Cancel, and let the stream end on its own last event (`canceled`), so the text shown is
      // the text stored; before the platform has named the answer, cancel once it does.
      if (running.responseId === null) return patchTurn(running.key, { stopWanted: true });
      try {
        await api.executions.cancel(running.responseId);
        return;
      } catch (err) {
        noteAuth(err);
        // Already finished: its stream brings the end.
        if (err instanceof ApiError && err.status === 409) return;
      }
      // The platform could not be told: stop reading here, and say so.
      drop(running.key);
      patchTurn(running.key, { status: 'failed', error: { message: 'The answer could not be stopped: the platform did not answer. Reload to see where it is.' } });
    },

    newSession() {
      leave();
      set({ rootId: null, loadingSession: false });
      const agent = useAgents.getState().agents.find((a) => a.id === get().agentId);
      if (agent) set({ answers: savedAnswers(agent) });
      setTree([], {});
    },

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
        noteAuth(err);
        set({ sessionsError: err });
      }
    },

    async renameSession(rootId, title) {
      try {
        const s = await api.sessions.rename(rootId, title);
        set({ sessions: get().sessions.map((x) => (x.id === rootId ? s : x)), sessionsError: null });
      } catch (err) {
        noteAuth(err);
        set({ sessionsError: err });
      }
    },

    async openSession(rootId, agent) {
      leave();
      const conv = get().conv;
      set({ loadingSession: true, rootId });
      setTree([], {});
      try {
        const s = await api.sessions.get(rootId);
        // A session started from a history (an older regenerate) shows that history first.
        const tree: Turn[] = [];
        for (const t of s.earlier) {
          if (t.role === 'user') tree.push({ ...blank(t.content, tree[tree.length - 1]?.key ?? ROOT), status: 'succeeded' });
          else if (tree.length) tree[tree.length - 1].output = t.content;
        }
        const start = tree[tree.length - 1]?.key ?? ROOT;
        // The session's agent (a URL opened on load names no agent): its answers and main question.
        const own = agent?.id === s.agent_id ? agent : useAgents.getState().agents.find((a) => a.id === s.agent_id);
        const main = own ? composerQuestion(own) : get().agentId === s.agent_id ? get().mainQuestion : null;
        for (const e of s.executions) {
          const status = turnStatus(e.status);
          tree.push({
            key: execKey(e.id),
            parent: e.parent_id ? execKey(e.parent_id) : start,
            user: shownInput(e.input, main),
            attachments: [],
            responseId: e.id,
            output: e.output,
            status,
            // Stopped by the person is not an error (UX.md).
            error: status === 'canceled' ? null : e.error,
            credits: e.credits,
            model: e.model ?? null,
            at: e.created_at,
            lastTextAt: null,
          });
        }
        if (get().rootId !== rootId || get().conv !== conv) return;
        // The conversation continues with the model and options its latest turn ran with.
        const shown = pathOf(tree, {});
        const latest = [...shown].reverse().find((t) => t.responseId !== null);
        const stored = s.executions.find((e) => e.id === latest?.responseId)?.answers;
        set({ loadingSession: false, agentId: s.agent_id, ...(own ? { answers: conversationAnswers(own, rootId, stored), mainQuestion: composerQuestion(own) } : {}) });
        setTree(tree, {});
        // Answers still being written: follow them from where they are.
        for (const t of tree) if (t.responseId !== null && t.status === 'running') void reattach(t.key, t.responseId);
      } catch (err) {
        noteAuth(err);
        if (get().conv !== conv) return;
        set({ loadingSession: false, rootId: null, sessionsError: err });
        setTree([], {});
        void get().loadSessions();
      }
    },

    async deleteSession(rootId) {
      try {
        await api.sessions.delete(rootId);
        set({ sessionsError: null });
        if (get().rootId === rootId) get().newSession();
      } catch (err) {
        noteAuth(err);
        set({ sessionsError: err });
      }
      await get().loadSessions();
    },

    async attach(files) {
      const added = files.map((f) => newAttachment(key(), f));
      set({ attachments: [...get().attachments, ...added] });
      await Promise.all(added.map((a) => followUpload(a.key)));
    },

    async retry(k) {
      if (!get().attachments.some((a) => a.key === k)) return;
      await followUpload(k);
    },

    detach(k) {
      forget(k);
      set({ attachments: get().attachments.filter((a) => a.key !== k) });
    },
  };
});

/** The text of the agent's main question, for agents that are not chats (what the composer fills). */
export function composerQuestion(agent: Agent | null): string | null {
  return agent && agent.type !== 'chat' ? (mainTextQuestion(agent.questions)?.name ?? null) : null;
}

/** What the user typed for a stored execution: another agent's input is its answers as JSON. */
function shownInput(input: string, main: string | null): string {
  if (!main) return input;
  try {
    const v = (JSON.parse(input) as Record<string, unknown>)[main];
    return typeof v === 'string' ? v : input;
  } catch {
    return input;
  }
}
