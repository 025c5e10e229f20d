import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, isAbort, messageOf, type ExecutionEvent } from '../api';
import { ApiError } from '../api/errors';
import { noteAuth } from './note-auth';
import { dropLegacyIndex, SESSIONS_SHOWN, turnStatus, type Session } from './sessions';
import { defaultAnswers, type Answers } from '../features/chat/answers';

export interface Attachment {
  key: string;
  name: string;
  fileId: number | null;
  status: string;
  error?: string;
}

export interface Turn {
  key: string;
  user: string;
  attachments: { id: number; name: string }[];
  responseId: number | null;
  output: string;
  status: 'pending' | 'running' | 'succeeded' | 'failed' | 'canceled';
  error: { message: string; code?: string } | null;
  credits: number | null;
}

interface ChatState {
  agentId: number | null;
  answers: Answers;
  rootId: number | null;
  turns: Turn[];
  sessions: Session[];
  sessionsError: unknown;
  attachments: Attachment[];
  busy: boolean;
  loadingSession: boolean;
  controller: AbortController | null;
  selectAgent(agent: Agent): void;
  setAnswer(name: string, value: unknown): void;
  send(text: string): Promise<void>;
  regenerate(): Promise<void>;
  stop(): Promise<void>;
  newSession(): void;
  loadSessions(): Promise<void>;
  openSession(rootId: number, agent?: Agent): Promise<void>;
  deleteSession(rootId: number): Promise<void>;
  attach(files: File[]): Promise<void>;
  detach(key: string): void;
}

const ANSWERS_KEY = 'agent-desk.answers.';
let seq = 0;
const key = () => `t${Date.now().toString(36)}${seq++}`;

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

export const useChat = create<ChatState>((set, get) => {
  const patchTurn = (k: string, patch: Partial<Turn> | ((t: Turn) => Partial<Turn>)) =>
    set({ turns: get().turns.map((t) => (t.key === k ? { ...t, ...(typeof patch === 'function' ? patch(t) : patch) } : t)) });

  /** Runs one turn: streams the answer into `turnKey`; `history` given means a fresh branch without root_id. */
  const run = async (turnKey: string, text: string, fileIds: number[], history?: { role: 'user' | 'assistant'; content: string }[]) => {
    const { agentId, answers } = get();
    if (agentId === null) return;
    const controller = new AbortController();
    set({ busy: true, controller });
    const rootBefore = history ? null : get().rootId;
    const body = {
      answers: { ...answers, ...(rootBefore ? { root_id: rootBefore } : {}) },
      messages: history ?? [{ role: 'user' as const, content: text }],
      ...(fileIds.length ? { file_ids: fileIds } : {}),
    };
    const onEvent = (e: ExecutionEvent) => {
      const t = get().turns.find((x) => x.key === turnKey);
      if (!t) return;
      const status = e.status === 'completed' || e.status === 'succeeded' ? 'succeeded' : e.status === 'failed' ? 'failed' : e.status === 'canceled' ? 'canceled' : 'running';
      patchTurn(turnKey, {
        responseId: e.id,
        status,
        output: e.status === 'running' ? t.output + (e.output ?? '') : t.output,
        credits: e.credits ?? t.credits,
        error: e.error ?? null,
      });
      // The first event names the session (a new root starts one): show it in the list at once.
      if (t.responseId === null) {
        set({ rootId: e.root_id ?? e.id });
        void get().loadSessions();
      }
    };
    try {
      const last = await api.executions.stream(agentId, body, onEvent, controller.signal);
      const t = get().turns.find((x) => x.key === turnKey);
      if (!last && t) patchTurn(turnKey, { status: 'failed', error: { message: 'The stream ended without an answer.' } });
      else if (t && t.status === 'running') patchTurn(turnKey, { status: 'failed', error: { message: 'The stream ended before the answer was complete.' } });
    } catch (err) {
      if (isAbort(err)) patchTurn(turnKey, { status: 'canceled' });
      else {
        noteAuth(err);
        const missing = err instanceof ApiError && err.notAvailable;
        const message = missing ? 'Running agents is not available on this version of the platform.' : messageOf(err);
        patchTurn(turnKey, { status: 'failed', error: { message, code: err instanceof ApiError ? err.code : undefined } });
      }
    } finally {
      set({ busy: false, controller: null });
      void get().loadSessions();
    }
  };

  return {
    agentId: null,
    answers: {},
    rootId: null,
    turns: [],
    sessions: [],
    sessionsError: null,
    attachments: [],
    busy: false,
    loadingSession: false,
    controller: null,

    selectAgent(agent) {
      if (get().agentId === agent.id) return;
      set({ agentId: agent.id, answers: savedAnswers(agent), turns: [], rootId: null });
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
      const ready = get().attachments.filter((a) => a.fileId !== null);
      const turn: Turn = {
        key: key(),
        user: trimmed,
        attachments: ready.map((a) => ({ id: a.fileId!, name: a.name })),
        responseId: null,
        output: '',
        status: 'pending',
        error: null,
        credits: null,
      };
      set({ turns: [...get().turns, turn], attachments: get().attachments.filter((a) => a.fileId === null && !a.error) });
      await run(turn.key, trimmed, turn.attachments.map((a) => a.id));
    },

    async regenerate() {
      const turns = get().turns;
      const last = turns[turns.length - 1];
      if (!last || get().busy) return;
      // The stored session already holds the last turn, so continuing it by root_id would show
      // the model its own answer. Branch instead: send the history explicitly, without root_id.
      const history = turns.slice(0, -1).flatMap((t) =>
        t.status === 'succeeded' ? [{ role: 'user' as const, content: t.user }, { role: 'assistant' as const, content: t.output }] : [],
      );
      history.push({ role: 'user', content: last.user });
      const fresh: Turn = { ...last, key: key(), responseId: null, output: '', status: 'pending', error: null, credits: null };
      set({ turns: [...turns.slice(0, -1), fresh] });
      await run(fresh.key, last.user, last.attachments.map((a) => a.id), history);
    },

    async stop() {
      const { controller, turns } = get();
      const running = [...turns].reverse().find((t) => t.status === 'running' || t.status === 'pending');
      controller?.abort();
      // Aborting only closes our stream (the platform finishes a disconnected execution); cancel stops it.
      if (running?.responseId) {
        try {
          await api.executions.cancel(running.responseId);
        } catch (err) {
          noteAuth(err);
        }
      }
    },

    newSession() {
      get().controller?.abort();
      set({ turns: [], rootId: null });
    },

    async loadSessions() {
      dropLegacyIndex();
      try {
        const page = await api.sessions.list({ per_page: SESSIONS_SHOWN });
        set({ sessions: page.data, sessionsError: null });
      } catch (err) {
        noteAuth(err);
        set({ sessionsError: err });
      }
    },

    async openSession(rootId, agent) {
      get().controller?.abort();
      set({ loadingSession: true, rootId, turns: [] });
      try {
        const s = await api.sessions.get(rootId);
        // A session started from a history (regenerate) shows that history first.
        const earlier: Turn[] = [];
        for (const t of s.earlier) {
          if (t.role === 'user') earlier.push({ key: key(), user: t.content, attachments: [], responseId: null, output: '', status: 'succeeded', error: null, credits: null });
          else if (earlier.length) earlier[earlier.length - 1].output = t.content;
        }
        const turns: Turn[] = [...earlier, ...s.executions.map((e) => ({
          key: key(),
          user: e.input,
          attachments: [],
          responseId: e.id,
          output: e.output,
          status: turnStatus(e.status),
          error: e.error,
          credits: e.credits,
        }))];
        set({ turns, loadingSession: false, agentId: s.agent_id, ...(agent && agent.id !== get().agentId ? { answers: savedAnswers(agent) } : {}) });
      } catch (err) {
        noteAuth(err);
        set({ loadingSession: false, rootId: null, turns: [], sessionsError: err });
        void get().loadSessions();
      }
    },

    async deleteSession(rootId) {
      try {
        await api.sessions.delete(rootId);
        set({ sessionsError: null, ...(get().rootId === rootId ? { rootId: null, turns: [] } : {}) });
      } catch (err) {
        noteAuth(err);
        set({ sessionsError: err });
      }
      await get().loadSessions();
    },

    async attach(files) {
      const added = files.map((f) => ({ key: key(), name: f.name, fileId: null, status: 'uploading' }) as Attachment);
      set({ attachments: [...get().attachments, ...added] });
      await Promise.all(
        files.map(async (f, i) => {
          const k = added[i].key;
          const patch = (p: Partial<Attachment>) => set({ attachments: get().attachments.map((a) => (a.key === k ? { ...a, ...p } : a)) });
          try {
            // Processed right away so its passages are ready for the model.
            const file = await api.files.upload(f, { process: true });
            patch({ fileId: file.id, status: file.status });
          } catch (err) {
            noteAuth(err);
            patch({ status: 'failed', error: messageOf(err) });
          }
        }),
      );
    },

    detach(k) {
      set({ attachments: get().attachments.filter((a) => a.key !== k) });
    },
  };
});
