import type { Agent, Question } from './agents.js';

/** Questions the execute body fills with its own fields: the conversation and the session. */
export const BODY_QUESTIONS: ReadonlySet<string> = new Set(['messages', 'root_id']);

/** Questions that steer the model rather than describe the task. */
export const STEERING_QUESTIONS: ReadonlySet<string> = new Set(['model', 'temperature', 'tools']);

/**
 * The question a person's typed text answers, for an agent that is not a chat (a summarizer's
 * `text`): its first required free-text question, else its first free-text one. The composer, the
 * /v1 doors and MCP's run_agent all put the user's message there.
 */
export function textQuestion(questions: readonly Question[]): Question | null {
  const text = questions.filter((q) => q.type === 'string' && !BODY_QUESTIONS.has(q.name) && !STEERING_QUESTIONS.has(q.name));
  return text.find((q) => q.required) ?? text[0] ?? null;
}

/** textQuestion for an agent: none for a chat, whose text is its conversation. */
export function textQuestionOf(agent: Pick<Agent, 'type' | 'questions'>): Question | null {
  return agent.type === 'chat' ? null : textQuestion(agent.questions);
}
