import type { Question } from '../../src-main/platform/contract/agents';
import { textQuestion } from '../../src-main/platform/contract/agent-questions';

export type Answers = Record<string, unknown>;

/** Questions the chat fills itself: the history and the session id. */
export const CHAT_OWNED = new Set(['messages', 'root_id']);

export function shownQuestions(questions: Question[]): Question[] {
  return questions.filter((q) => !CHAT_OWNED.has(q.name));
}

/**
 * A starting answer per question: a select's default (else its first option), nothing for the rest. The model is
 * left to the model picker, which starts on the default model the providers serve (an agent's
 * listed ids may be served by nobody here).
 */
export function defaultAnswers(questions: Question[]): Answers {
  const out: Answers = {};
  for (const q of shownQuestions(questions)) {
    if (q.name === 'model') continue;
    // The agent's saved default (e.g. web search on) is what a new chat starts with.
    if (q.type === 'select' && q.options?.length) out[q.name] = q.default !== undefined && q.options.includes(q.default) ? q.default : q.options[0];
    else if (q.type === 'boolean') out[q.name] = false;
  }
  return out;
}

/** Required questions without an answer, by name (the platform would answer 422). */
export function missingAnswers(questions: Question[], answers: Answers): string[] {
  return shownQuestions(questions)
    .filter((q) => q.required && q.type !== 'boolean')
    .filter((q) => {
      const v = answers[q.name];
      return v === undefined || v === '' || v === null || (Array.isArray(v) && !v.length);
    })
    .map((q) => q.name);
}

/** The question the composer's text answers for an agent that is not a chat: the platform's one rule (contract/agent-questions). */
export const mainTextQuestion = (questions: Question[]): Question | null => textQuestion(questions);
