import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, isAbort, messageOf, type ExecutionEvent } from '../api';
import { ApiError } from '../api/errors';
import { noteAuth } from './note-auth';
import { loadSessions, saveSessions, upsertSession, type SessionMeta } from './sessions';
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
  sessions: SessionMeta[];
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
  openSession(rootId: number, agent?: Agent): Promise<void>;
  forgetSession(rootId: number): void;
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
      if (t.responseId === null) remember(turnKey, e, text, rootBefore);
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
    }
  };

  /** Files the first event of a turn into the session index (a new root starts a new session). */
  const remember = (turnKey: string, e: ExecutionEvent, text: string, rootBefore: number | null) => {
    const rootId = e.root_id ?? e.id;
    const { agentId, turns, sessions, rootId: current } = get();
    const idx = turns.findIndex((t) => t.key === turnKey);
    const prior = turns.slice(0, idx).filter((t) => t.responseId !== null).map((t) => ({ responseId: t.responseId!, user: t.user }));
    const meta: SessionMeta = {
      rootId,
      agentId: agentId!,
      title: (turns[0]?.user || text).slice(0, 80),
      updatedAt: new Date().toISOString(),
      turns: [...prior, { responseId: e.id, user: text }],
    };
    const next = upsertSession(sessions, meta, rootBefore ?? current);
    saveSessions(next);
    set({ sessions: next, rootId });
  };

  return {
    agentId: null,
    answers: {},
    rootId: null,
    turns: [],
    sessions: loadSessions(),
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

    async openSession(rootId, agent) {
      const meta = get().sessions.find((s) => s.rootId === rootId);
      if (!meta) return;
      get().controller?.abort();
      set({ loadingSession: true, rootId, turns: [] });
      const turns: Turn[] = [];
      for (const t of meta.turns) {
        try {
          const e = await api.executions.get(t.responseId);
          turns.push({
            key: key(),
            user: t.user || e.input || '',
            attachments: [],
            responseId: e.id,
            output: e.output ?? '',
            status: e.status === 'succeeded' || e.status === 'completed' ? 'succeeded' : e.status === 'failed' ? 'failed' : e.status === 'canceled' ? 'canceled' : 'running',
            error: e.error ?? null,
            credits: e.credits ?? null,
          });
        } catch (err) {
          noteAuth(err);
          turns.push({ key: key(), user: t.user, attachments: [], responseId: t.responseId, output: '', status: 'failed', error: { message: messageOf(err) }, credits: null });
        }
      }
      set({ turns, loadingSession: false, agentId: meta.agentId, ...(agent && agent.id !== get().agentId ? { answers: savedAnswers(agent) } : {}) });
    },

    forgetSession(rootId) {
      const next = get().sessions.filter((s) => s.rootId !== rootId);
      saveSessions(next);
      set({ sessions: next, ...(get().rootId === rootId ? { rootId: null, turns: [] } : {}) });
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
