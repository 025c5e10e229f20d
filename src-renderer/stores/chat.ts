import { useAgentChoice } from './agent-choice';
import { draftAnswers } from './chat-answers';
import { useConversation } from './conversation';
import { useSessions } from './sessions';

/**
 * The chat screen's actions that span its stores: sessions (the list), conversation (the open
 * one), agent choice, attachments (attachments.ts), each of which holds only its own state.
 */

/** One of the open conversation's answers changed: the last choice for its agent, and the conversation's own draft. */
export function setAnswer(name: string, value: unknown): void {
  const answers = useAgentChoice.getState().setAnswer(name, value);
  const { rootId } = useConversation.getState();
  if (rootId !== null) draftAnswers.set(rootId, answers);
}

/** Deletes a session; the open one gives way to a new chat. */
export async function deleteSession(rootId: number): Promise<void> {
  const deleted = await useSessions.getState().removeSession(rootId);
  if (deleted && useConversation.getState().rootId === rootId) useConversation.getState().newSession();
  await useSessions.getState().loadSessions();
}
