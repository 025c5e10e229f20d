import type { Agent } from '../../src-main/platform/contract/agents';
import { defaultAnswers, type Answers } from './answers';

/**
 * The agent choice of a conversation: the model and options it runs with. A new chat starts from
 * the person's last choice for that agent (kept in localStorage); a stored conversation continues
 * with the answers its latest turn ran with (the platform keeps them), so reopening it never
 * silently switches model.
 */
/** What the person picked for a new chat with an agent, by agent id: only those answers, never the defaults around them. */
const CHOICES_KEY = 'agent-desk.choices.';
/** Before: every answer the chat held when one changed, the ones it started with included. Read, never written. */
const LEGACY_KEY = 'agent-desk.answers.';

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

function read(key: string): Answers | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Answers) : null;
  } catch {
    return null;
  }
}

/**
 * A last choice saved the old way, less what the chat had started with: the temperature on its
 * first option (0) was where every chat started before the agent had a default of its own (near
 * 0.7), so it reads as no choice and the agent's default applies.
 */
function legacyChoices(agent: Agent): Answers {
  const old = read(LEGACY_KEY + agent.id);
  if (!old) return {};
  const temperature = agent.questions.find((q) => q.name === 'temperature' && q.type === 'select');
  const first = temperature?.options?.[0];
  if (temperature?.default !== undefined && temperature.default !== first && old.temperature === first) {
    const rest = { ...old };
    delete rest.temperature;
    return rest;
  }
  return old;
}

/** The person's last choice for a new chat with this agent: what they picked, over the agent's defaults. */
export function savedAnswers(agent: Agent): Answers {
  return fitAnswers(agent, { ...legacyChoices(agent), ...read(CHOICES_KEY + agent.id) });
}

/** One answer the person picked: it joins their last choice for the agent (the other answers stay the agent's defaults). */
export function saveChoice(agentId: number, name: string, value: unknown): void {
  try {
    localStorage.setItem(CHOICES_KEY + agentId, JSON.stringify({ ...read(CHOICES_KEY + agentId), [name]: value }));
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
