import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, ops } from '../api';
import { ApiError } from '../api/errors';
import { ROOT, pathOf, type Turn } from './conversation-tree';
import { useAgents } from './agents';
import { composerQuestion, useAgentChoice } from './agent-choice';
import { useAttachments } from './attachments';
import { conversationAnswers, savedAnswers } from './chat-answers';
import { drop, dropAll } from './chat-streams';
import { answerRuns } from './conversation-runs';
import { blank, isLive, treeOfSession } from './conversation-turns';
import { useSessions } from './sessions';
import { useNav } from './nav';
import { draftKey, useDrafts } from './drafts';
import { t } from '../i18n';

export type { Turn };

/**
 * The open conversation: every turn of its session (all branches) and the alternative chosen at
 * each fork. The branch shown (`selectTurns`) and whether an answer is being written
 * (`selectBusy`) are derived from them, never stored.
 */
interface ConversationState {
  /** the open session, null for a new chat until its first answer names it */
  rootId: number | null;
  /** bumped whenever another conversation (or a new chat) opens: late events of the last one are dropped */
  conv: number;
  /** every turn of the open session, all branches */
  tree: Turn[];
  /** per parent key, the alternative shown */
  chosen: Record<string, string>;
  loadingSession: boolean;
  /** bumped on each send: the conversation scrolls the new message into view */
  sentSeq: number;
  /** the turn whose message is being edited in place */
  editing: string | null;
  /** bumped each time a stored conversation has finished opening (the find bar reacts to it) */
  openedSeq: number;
  selectAgent(agent: Agent): void;
  send(text: string): Promise<void>;
  regenerate(turnKey?: string): Promise<void>;
  resend(turnKey: string, text: string): Promise<void>;
  choose(turnKey: string): void;
  setEditing(turnKey: string | null): void;
  stop(): Promise<void>;
  newSession(): void;
  /** The open conversation goes on with `agent` (its own agent was deleted): the history stays. */
  continueWith(agent: Agent): void;
  openSession(rootId: number, agent?: Agent): Promise<void>;
}

/** The branch shown: from the first turn to the newest, following `chosen` (the same array while neither changes). */
export const selectTurns = (() => {
  let memo: { tree: Turn[]; chosen: Record<string, string>; turns: Turn[] } | null = null;
  return (s: Pick<ConversationState, 'tree' | 'chosen'>): Turn[] => {
    if (memo?.tree !== s.tree || memo.chosen !== s.chosen) memo = { tree: s.tree, chosen: s.chosen, turns: pathOf(s.tree, s.chosen) };
    return memo.turns;
  };
})();

/** The agent a chat starts on: the first local chat agent, else any chat agent, else the first. */
export function firstChatAgent(agents: Agent[]): Agent | undefined {
  return agents.find((a) => a.type === 'chat' && a.source !== 'remote') ?? agents.find((a) => a.type === 'chat') ?? agents[0];
}

/** An answer of the open conversation is being written. */
export const selectBusy = (s: Pick<ConversationState, 'tree'>): boolean => s.tree.some(isLive);

export const useConversation = create<ConversationState>((set, get) => {
  const setTree = (tree: Turn[], chosen = get().chosen) => set({ tree, chosen });
  const turnOf = (k: string) => get().tree.find((t) => t.key === k);
  const patchTurn = (k: string, patch: Partial<Turn>) => setTree(get().tree.map((t) => (t.key === k ? { ...t, ...patch } : t)));
  const busy = () => selectBusy(get());
  const runs = answerRuns({
    conv: () => get().conv,
    rootId: () => get().rootId,
    named: (rootId) => {
      // What was typed meanwhile stays with the conversation it was typed in.
      useDrafts.getState().move(draftKey(null), draftKey(rootId));
      set({ rootId });
    },
    sent: () => set({ sentSeq: get().sentSeq + 1 }),
    turnOf,
    patchTurn,
  });

  /** Leaves the open conversation: its answers keep running in the platform, only reading them here stops. */
  const leave = () => {
    dropAll();
    set({ conv: get().conv + 1, editing: null });
  };

  /** A new alternative beside `of` (regenerate, or an edited message). */
  const alternative = async (of: Turn, text: string) => {
    const fresh = blank(text, of.parent, of.attachments);
    setTree([...get().tree, fresh], { ...get().chosen, [of.parent]: fresh.key });
    set({ editing: null });
    const files = fresh.attachments.map((a) => a.id);
    if (of.responseId !== null) return runs.run(fresh, files, { alternative_of: of.responseId });
    // Never stored (it failed before the platform took it): continue from its parent instead.
    const parent = turnOf(of.parent);
    await runs.run(fresh, files, parent?.responseId ? { parent_id: parent.responseId } : {});
  };

  return {
    rootId: null,
    conv: 0,
    tree: [],
    chosen: {},
    loadingSession: false,
    sentSeq: 0,
    editing: null,
    openedSeq: 0,

    selectAgent(agent) {
      if (useAgentChoice.getState().agentId === agent.id) return;
      leave();
      useAgentChoice.getState().pick(agent, savedAnswers(agent));
      set({ rootId: null, loadingSession: false, tree: [], chosen: {} });
    },

    async send(text) {
      const trimmed = text.trim();
      if (!trimmed || busy() || useAgentChoice.getState().agentId === null) return;
      const ready = useAttachments.getState().take();
      const path = selectTurns(get());
      const parent = path[path.length - 1];
      const turn = blank(trimmed, parent?.key ?? ROOT, ready.map((a) => ({ id: a.fileId!, name: a.name })));
      setTree([...get().tree, turn], { ...get().chosen, [turn.parent]: turn.key });
      await runs.run(turn, turn.attachments.map((a) => a.id), parent?.responseId ? { parent_id: parent.responseId } : {});
    },

    async regenerate(turnKey) {
      const turns = selectTurns(get());
      const of = turnKey ? turns.find((t) => t.key === turnKey) : turns[turns.length - 1];
      if (!of || busy()) return;
      await alternative(of, of.user);
    },

    async resend(turnKey, text) {
      const of = turnOf(turnKey);
      const trimmed = text.trim();
      if (!of || !trimmed || busy()) return;
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
      const running = [...selectTurns(get())].reverse().find(isLive);
      if (!running) return;
      // Cancel, and let the stream end on its own last event (`canceled`), so the text shown is
      // the text stored; before the platform has named the answer, cancel once it does.
      if (running.responseId === null) return patchTurn(running.key, { stopWanted: true });
      try {
        await api.call(ops.cancelAgentResponse, { params: { id: running.responseId } });
        return;
      } catch (err) {
        // Already finished: its stream brings the end.
        if (err instanceof ApiError && err.status === 409) return;
      }
      // The platform could not be told: stop reading here, and say so.
      drop(running.key);
      patchTurn(running.key, { status: 'failed', error: { message: t('chat.run.notStopped') } });
    },

    newSession() {
      leave();
      set({ rootId: null, loadingSession: false });
      // The address must stop naming a conversation too, even when none was open yet: a New chat
      // pressed while the app is still loading would otherwise be undone by the address's one.
      const nav = useNav.getState();
      if (nav.screen === 'chat' && nav.sub) nav.go('chat', '');
      const choice = useAgentChoice.getState();
      const agents = useAgents.getState().agents;
      // The agent of the last conversation may be gone: a new chat starts on one that exists.
      const agent = agents.find((a) => a.id === choice.agentId) ?? firstChatAgent(agents);
      if (agent) choice.pick(agent, savedAnswers(agent));
      setTree([], {});
    },

    continueWith(agent) {
      useAgentChoice.getState().pick(agent, savedAnswers(agent));
    },

    async openSession(rootId, agent) {
      leave();
      const conv = get().conv;
      set({ loadingSession: true, rootId, tree: [], chosen: {} });
      try {
        const s = await api.call(ops.getSession, { params: { id: rootId } });
        // The session's agent (a URL opened on load names no agent): its answers and main question.
        const own = agent?.id === s.agent_id ? agent : useAgents.getState().agents.find((a) => a.id === s.agent_id);
        const choice = useAgentChoice.getState();
        const main = own ? composerQuestion(own) : choice.agentId === s.agent_id ? choice.mainQuestion : null;
        const tree = treeOfSession(s, main);
        if (get().rootId !== rootId || get().conv !== conv) return;
        // The conversation continues with the model and options its latest turn ran with.
        const latest = [...pathOf(tree, {})].reverse().find((t) => t.responseId !== null);
        const stored = s.executions.find((e) => e.id === latest?.responseId)?.answers;
        if (own) choice.pick(own, conversationAnswers(own, rootId, stored));
        else choice.pickId(s.agent_id);
        set({ loadingSession: false, tree, chosen: {}, openedSeq: get().openedSeq + 1 });
        // Answers still being written: follow them from where they are.
        for (const t of tree) if (t.responseId !== null && t.status === 'running') void runs.reattach(t.key, t.responseId);
      } catch (err) {
        if (get().conv !== conv) return;
        set({ loadingSession: false, rootId: null, tree: [], chosen: {} });
        useSessions.getState().showError(err);
        void useSessions.getState().loadSessions();
      }
    },
  };
});
