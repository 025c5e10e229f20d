import type { Agent } from '../../src-main/platform/contract/agents';
import { defaultAnswers, type Answers } from '../features/chat/answers';

/**
 * The agent choice of a conversation: the model and options it runs with. A new chat starts from
 * the person's last choice for that agent (kept in localStorage); a stored conversation continues
 * with the answers its latest turn ran with (the platform keeps them), so reopening it never
 * silently switches model.
 */
const ANSWERS_KEY = 'agent-desk.answers.';

/** `answers` kept where they still fit the agent's questions, over its defaults. */
export function fitAnswers(agent: Agent, answers: Answers | undefined | null): Answers {
  const base = defaultAnswers(agent.questions);
  if (!answers) return base;
  for (const q of agent.questions) {
    const v = answers[q.name];
    if (v === undefined) continue;
    // A model is any the providers serve (the picker checks that), not only the agent's listed ids.
    if (q.type === 'select' && q.name !== 'model' && !(q.options ?? []).includes(String(v))) continue;
    base[q.name] = v;
  }
  return base;
}

/** The person's last choice for a new chat with this agent. */
export function savedAnswers(agent: Agent): Answers {
  try {
    return fitAnswers(agent, JSON.parse(localStorage.getItem(ANSWERS_KEY + agent.id) ?? '{}') as Answers);
  } catch {
    return fitAnswers(agent, null);
  }
}

export function saveAnswers(agentId: number, answers: Answers): void {
  try {
    localStorage.setItem(ANSWERS_KEY + agentId, JSON.stringify(answers));
  } catch {}
}

/** Choices changed in an open conversation and not yet sent, by session id (for switching back). */
const drafts = new Map<number, Answers>();

export const draftAnswers = {
  get: (rootId: number) => drafts.get(rootId),
  set: (rootId: number, answers: Answers) => void drafts.set(rootId, answers),
};

/** A reopened conversation's answers: a draft of this visit, else those its latest turn ran with, else the last choice. */
export function conversationAnswers(agent: Agent, rootId: number, stored: Answers | undefined): Answers {
  const draft = drafts.get(rootId);
  if (draft) return fitAnswers(agent, draft);
  return stored ? fitAnswers(agent, { ...savedAnswers(agent), ...stored }) : savedAnswers(agent);
}
