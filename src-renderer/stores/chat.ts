import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, isAbort, messageOf, type ExecutionEvent } from '../api';
import type { ExecuteBody } from '../api/client';
import { ApiError } from '../api/errors';
import { noteAuth } from './note-auth';
import { useAgents } from './agents';
import { dropLegacyIndex, SESSIONS_SHOWN, turnStatus, type Session } from './sessions';
import { defaultAnswers, mainTextQuestion, type Answers } from '../features/chat/answers';
import { ROOT, pathOf, type Turn } from '../features/chat/tree';

export type { Turn };

export interface Attachment {
  key: string;
  name: string;
  fileId: number | null;
  /** what the chip says: uploading 40 %, processing, ready */
  status: string;
  /** processed (or failed): the file can be sent */
  done: boolean;
  error?: string;
}

interface ChatState {
  agentId: number | null;
  /** for agents that are not chats: the question the composer's text answers */
  mainQuestion: string | null;
  answers: Answers;
  rootId: number | null;
  /** every turn of the open session, all branches */
  tree: Turn[];
  /** per parent key, the alternative shown */
  chosen: Record<string, string>;
  /** the branch shown: from the first turn to the newest, following `chosen` */
  turns: Turn[];
  sessions: Session[];
  sessionsTotal: number;
  sessionsQuery: string;
  sessionsError: unknown;
  attachments: Attachment[];
  busy: boolean;
  loadingSession: boolean;
  controller: AbortController | null;
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
  detach(key: string): void;
}

const ANSWERS_KEY = 'agent-desk.answers.';
let seq = 0;
const key = () => `t${Date.now().toString(36)}${seq++}`;
const execKey = (id: number) => `e${id}`;
const POLL_MS = 500;

function savedAnswers(agent: Agent): Answers {
  const base = defaultAnswers(agent.questions);
  try {
    const saved = JSON.parse(localStorage.getItem(ANSWERS_KEY + agent.id) ?? '{}') as Answers;
    for (const q of agent.questions) {
      const v = saved[q.name];
      if (v === undefined) continue;
      if (q.type === 'select' && !(q.options ?? []).includes(String(v))) continue;
      base[q.name] = v;
    }
  } catch {}
  return base;
}

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
});

export const useChat = create<ChatState>((set, get) => {
  /** Sets the tree (and what is chosen), and the shown branch derived from them. */
  const setTree = (tree: Turn[], chosen = get().chosen) => set({ tree, chosen, turns: pathOf(tree, chosen) });
  const patchTurn = (k: string, patch: Partial<Turn> | ((t: Turn) => Partial<Turn>)) =>
    setTree(get().tree.map((t) => (t.key === k ? { ...t, ...(typeof patch === 'function' ? patch(t) : patch) } : t)));

  /** Streams the answer of `turn` (already in the tree). `where`: the branch fields of the request. */
  const run = async (turn: Turn, fileIds: number[], where: Pick<ExecuteBody, 'parent_id' | 'alternative_of'>) => {
    const { agentId, answers, rootId, mainQuestion } = get();
    if (agentId === null) return;
    const agent = agentId;
    const controller = new AbortController();
    set({ busy: true, controller, sentSeq: get().sentSeq + 1 });
    // A chat gets the text as its message; another agent as the answer to its main question.
    const body: ExecuteBody = {
      answers: { ...answers, ...(mainQuestion ? { [mainQuestion]: turn.user } : {}), ...(rootId ? { root_id: rootId } : {}) },
      ...(mainQuestion ? {} : { messages: [{ role: 'user' as const, content: turn.user }] }),
      ...(fileIds.length ? { file_ids: fileIds } : {}),
      ...where,
    };
    const onEvent = (e: ExecutionEvent) => {
      const t = get().tree.find((x) => x.key === turn.key);
      if (!t) return;
      const status = e.status === 'completed' || e.status === 'succeeded' ? 'succeeded' : e.status === 'failed' ? 'failed' : e.status === 'canceled' ? 'canceled' : 'running';
      patchTurn(turn.key, {
        responseId: e.id,
        status,
        output: e.status === 'running' ? t.output + (e.output ?? '') : t.output,
        credits: e.credits ?? t.credits,
        error: e.error ?? null,
        at: t.at ?? e.created_at,
      });
      // The first event names the session (a new root starts one): show it in the list at once.
      if (t.responseId === null && get().rootId === null) {
        set({ rootId: e.root_id ?? e.id });
        void get().loadSessions();
      }
    };
    try {
      const last = await api.executions.stream(agent, body, onEvent, controller.signal);
      const t = get().tree.find((x) => x.key === turn.key);
      if (!last && t) patchTurn(turn.key, { status: 'failed', error: { message: 'The stream ended without an answer.' } });
      else if (t && t.status === 'running') patchTurn(turn.key, { status: 'failed', error: { message: 'The stream ended before the answer was complete.' } });
    } catch (err) {
      if (isAbort(err)) patchTurn(turn.key, { status: 'canceled' });
      else {
        noteAuth(err);
        const missing = err instanceof ApiError && err.notAvailable;
        const message = missing ? 'Running agents is not available on this version of the platform.' : messageOf(err);
        patchTurn(turn.key, { status: 'failed', error: { message, code: err instanceof ApiError ? err.code : undefined } });
      }
    } finally {
      set({ busy: false, controller: null });
      void get().loadSessions();
    }
    // The stored record is what a reload shows: take its text (a stopped answer reads the same) and model.
    const id = get().tree.find((x) => x.key === turn.key)?.responseId;
    if (id) {
      try {
        const stored = await api.executions.get(id);
        if (stored.status !== 'running' && stored.status !== 'starting') patchTurn(turn.key, { output: stored.output, model: stored.model ?? null, at: stored.created_at });
      } catch {}
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
      const parent = get().tree.find((t) => t.key === of.parent);
      await run(fresh, fresh.attachments.map((a) => a.id), parent?.responseId ? { parent_id: parent.responseId } : {});
    }
  };

  return {
    agentId: null,
    mainQuestion: null,
    answers: {},
    rootId: null,
    tree: [],
    chosen: {},
    turns: [],
    sessions: [],
    sessionsTotal: 0,
    sessionsQuery: '',
    sessionsError: null,
    attachments: [],
    busy: false,
    loadingSession: false,
    controller: null,
    sentSeq: 0,
    editing: null,

    selectAgent(agent) {
      if (get().agentId === agent.id) return;
      set({ agentId: agent.id, mainQuestion: composerQuestion(agent), answers: savedAnswers(agent), rootId: null, editing: null, loadingSession: false });
      setTree([], {});
    },

    setAnswer(name, value) {
      const answers = { ...get().answers, [name]: value };
      set({ answers });
      const id = get().agentId;
      if (id !== null) localStorage.setItem(ANSWERS_KEY + id, JSON.stringify(answers));
    },

    async send(text) {
      const trimmed = text.trim();
      if (!trimmed || get().busy || get().agentId === null) return;
      const ready = get().attachments.filter((a) => a.fileId !== null && a.done && !a.error);
      const path = get().turns;
      const parent = path[path.length - 1];
      const turn = blank(trimmed, parent?.key ?? ROOT, ready.map((a) => ({ id: a.fileId!, name: a.name })));
      set({ attachments: get().attachments.filter((a) => !ready.includes(a)) });
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
      const of = get().tree.find((t) => t.key === turnKey);
      const trimmed = text.trim();
      if (!of || !trimmed || get().busy) return;
      await alternative(of, trimmed);
    },

    choose(turnKey) {
      const t = get().tree.find((x) => x.key === turnKey);
      if (t) setTree(get().tree, { ...get().chosen, [t.parent]: t.key });
    },

    setEditing(turnKey) {
      set({ editing: turnKey });
    },

    async stop() {
      const { controller, turns } = get();
      const running = [...turns].reverse().find((t) => t.status === 'running' || t.status === 'pending');
      // Cancel first and let the stream end on its own last event, so the text shown is the
      // text stored; abort our stream only when the platform cannot be told.
      if (running?.responseId) {
        try {
          await api.executions.cancel(running.responseId);
          return;
        } catch (err) {
          noteAuth(err);
        }
      }
      controller?.abort();
    },

    newSession() {
      get().controller?.abort();
      set({ rootId: null, editing: null, loadingSession: false });
      setTree([], {});
    },

    async loadSessions(opts = {}) {
      dropLegacyIndex();
      const query = opts.query ?? get().sessionsQuery;
      const have = opts.more ? get().sessions : [];
      try {
        const page = await api.sessions.list({ per_page: SESSIONS_SHOWN, page: opts.more ? Math.floor(have.length / SESSIONS_SHOWN) + 1 : 1, q: query.trim() || undefined });
        // A newer search may have started meanwhile: keep only the answer to the current one.
        if (query !== (opts.query ?? get().sessionsQuery)) return;
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
      get().controller?.abort();
      set({ loadingSession: true, rootId, editing: null });
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
          tree.push({
            key: execKey(e.id),
            parent: e.parent_id ? execKey(e.parent_id) : start,
            user: shownInput(e.input, main),
            attachments: [],
            responseId: e.id,
            output: e.output,
            status: turnStatus(e.status),
            error: e.error,
            credits: e.credits,
            model: e.model ?? null,
            at: e.created_at,
          });
        }
        if (get().rootId !== rootId) return;
        const fresh = own && (own.id !== get().agentId || !Object.keys(get().answers).length);
        set({ loadingSession: false, agentId: s.agent_id, ...(own && fresh ? { answers: savedAnswers(own), mainQuestion: composerQuestion(own) } : {}) });
        setTree(tree, {});
      } catch (err) {
        noteAuth(err);
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
      const added = files.map((f) => ({ key: key(), name: f.name || 'pasted file', fileId: null, status: 'uploading', done: false }) as Attachment);
      set({ attachments: [...get().attachments, ...added] });
      await Promise.all(
        files.map(async (f, i) => {
          const k = added[i].key;
          const patch = (p: Partial<Attachment>) => set({ attachments: get().attachments.map((a) => (a.key === k ? { ...a, ...p } : a)) });
          const present = () => get().attachments.some((a) => a.key === k);
          try {
            // Processed right away so its text is ready for the model.
            const file = await api.files.upload(f, {
              process: true,
              // Once every byte is sent the platform still stores and reads it: say so.
              onProgress: (sent, total) => patch({ status: sent >= total ? 'processing…' : `uploading ${Math.floor((sent / Math.max(total, 1)) * 100)} %` }),
            });
            patch({ fileId: file.id, status: file.status === 'completed' ? 'ready' : 'processing…' });
            let status = file.status;
            let error = file.error;
            while ((status === 'waiting' || status === 'in_progress') && present()) {
              await new Promise((r) => setTimeout(r, POLL_MS));
              const now = await api.files.get(file.id);
              status = now.status;
              error = now.error;
            }
            if (status === 'failed') patch({ done: true, status: 'failed', error: error ?? 'The file could not be read.' });
            else patch({ done: true, status: 'ready' });
          } catch (err) {
            noteAuth(err);
            patch({ done: true, status: 'failed', error: messageOf(err) });
          }
        }),
      );
    },

    detach(k) {
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
