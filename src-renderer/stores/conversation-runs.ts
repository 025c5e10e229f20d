import { api, messageOf, type ExecutionEvent, ops } from '../api';
import type { ExecuteBody } from '../../src-main/platform/contract/executions';
import { ApiError } from '../api/errors';
import type { Turn } from './conversation-tree';
import { useAgentChoice } from './agent-choice';
import { follow, isTerminal, track, untrack } from './chat-streams';
import { isFinished } from '../../src-main/platform/contract/executions';
import { eventPatch } from './conversation-turns';
import { newChatDeveloper, useSessions } from './sessions';
import { useAgents } from './agents';
import { t } from '../i18n';

/** What running a turn's answer needs of the open conversation (conversation.ts hands it over). */
export interface OpenConversation {
  /** bumped whenever another conversation (or a new chat) opens: late events of the last one are dropped */
  conv(): number;
  rootId(): number | null;
  /** The first event named the session (a new root starts one). */
  named(rootId: number): void;
  /** A message went: the conversation scrolls it into view. */
  sent(): void;
  turnOf(key: string): Turn | undefined;
  patchTurn(key: string, patch: Partial<Turn>): void;
}

/**
 * A turn's answer, read into the turn: the execute stream of a message just sent, or the
 * re-attach stream of one still being written (after a reload, or reopening its conversation).
 */
export function answerRuns(c: OpenConversation) {
  /** One event of turn `k`'s answer. `replace`: the event holds the whole text so far. */
  const apply = (k: string, conv: number, e: ExecutionEvent, replace: boolean) => {
    if (c.conv() !== conv) return;
    const t = c.turnOf(k);
    if (!t) return;
    c.patchTurn(k, eventPatch(t, e, replace, new Date().toISOString()));
    // Stop was pressed before the platform named the answer: tell it now.
    if (t.stopWanted && t.responseId === null && !isTerminal(e)) void api.call(ops.cancelAgentResponse, { params: { id: e.id } }).catch(() => undefined);
    // The first event names the session (a new root starts one): show it in the list at once.
    if (t.responseId === null && c.rootId() === null) {
      c.named(e.root_id ?? e.id);
      void useSessions.getState().settleNew(e.root_id ?? e.id);
      void useSessions.getState().loadSessions();
    }
  };

  /** The end of turn `k`'s answer: its last event (or why none came), then the stored record (model, final text). */
  const finish = async (k: string, conv: number, last: ExecutionEvent | null, failure: unknown) => {
    if (c.conv() !== conv || !c.turnOf(k)) return;
    if (failure) {
      const missing = failure instanceof ApiError && failure.notAvailable;
      // The agent was deleted (elsewhere, or in another window): the chat then offers another one.
      const gone = failure instanceof ApiError && failure.status === 404 && !missing && /agent/i.test(failure.message);
      if (gone) void useAgents.getState().load();
      const message = missing ? t('chat.run.notAvailable') : gone ? t('chat.goneAgent.notSent') : messageOf(failure);
      c.patchTurn(k, { status: 'failed', error: { message, code: failure instanceof ApiError ? failure.code : undefined } });
    } else if (!last) {
      c.patchTurn(k, { status: 'failed', error: { message: t('chat.run.lost') } });
    } else if (!isTerminal(last)) {
      c.patchTurn(k, { status: 'failed', error: { message: t('chat.run.endedEarly') } });
    }
    void useSessions.getState().loadSessions();
    const id = c.turnOf(k)?.responseId;
    if (!id) return;
    try {
      const stored = await api.call(ops.getAgentResponse, { params: { id } });
      if (c.conv() !== conv) return;
      if (isFinished(stored.status)) c.patchTurn(k, { output: stored.output, model: stored.model ?? null, at: stored.created_at, timing: stored.timing ?? null });
    } catch {}
  };

  return {
    /** Reads turn `k`'s answer from its execution. */
    async reattach(k: string, id: number) {
      const conv = c.conv();
      const signal = track(k);
      try {
        const last = await follow(id, null, (e, replace) => apply(k, conv, e, replace), signal);
        await finish(k, conv, last, null);
      } catch (err) {
        if (!signal.aborted) await finish(k, conv, null, err);
      } finally {
        untrack(k, signal);
      }
    },

    /** Streams the answer of `turn` (already in the tree). `where`: the branch fields of the request. */
    async run(turn: Turn, fileIds: number[], where: Pick<ExecuteBody, 'parent_id' | 'alternative_of'>) {
      const { agentId, answers, mainQuestion } = useAgentChoice.getState();
      const rootId = c.rootId();
      const conv = c.conv();
      if (agentId === null) return;
      const signal = track(turn.key);
      c.sent();
      // A chat gets the text as its message; another agent as the answer to its main question.
      const body: ExecuteBody = {
        answers: { ...answers, ...(mainQuestion ? { [mainQuestion]: turn.user } : {}), ...(rootId ? { root_id: rootId } : {}) },
        ...(mainQuestion ? {} : { messages: [...newChatDeveloper(rootId), { role: 'user' as const, content: turn.user }] }),
        ...(fileIds.length ? { file_ids: fileIds } : {}),
        ...where,
      };
      let last: ExecutionEvent | null = null;
      let failure: unknown = null;
      try {
        last = await api.stream(ops.executeAgent, { params: { id: agentId }, body: { ...body, stream: true } }, (e) => apply(turn.key, conv, e, false), signal);
      } catch (err) {
        failure = err;
      }
      try {
        if (signal.aborted) return;
        // The stream broke before its last event (the answer goes on in the platform): follow it
        // again after the text already shown.
        const t = c.turnOf(turn.key);
        if (!isTerminal(last) && t?.responseId && c.conv() === conv) {
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
    },
  };
}
