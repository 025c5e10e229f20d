import type { Agent, Question } from '../../contract/agents.js';
import type { ExecuteRequest } from '../../contract/executions.js';
import { BODY_QUESTIONS, STEERING_QUESTIONS } from '../../contract/agent-questions.js';
import type { Turn } from '../../engine/turn.js';
import { ValidationError } from '../../kernel/errors.js';
import { say } from '../../contract/messages.js';

/** Answers that steer the model rather than describe the task (left out of a text agent's prompt). */
export const STEERING: ReadonlySet<string> = new Set([...STEERING_QUESTIONS, ...BODY_QUESTIONS]);

/** The answers checked against the agent's questions, and what they steer. */
export interface NormalizedRequest {
  answers: Record<string, unknown>;
  /** null: the user's default model (omitted, or a hosted `tess-*` id) */
  model: string | null;
  temperature: number | undefined;
  /** `internet`, a website source, or null */
  tool: string | null;
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const label = (name: string) => name.replace(/_/g, ' ');

/** The hosted platform's own model ids: they run on the user's default model here. */
export const isHostedModel = (v: unknown) => typeof v === 'string' && /^tess-/i.test(v.trim());

/**
 * CONTRACT.md "Compatibility": a required select left out takes the question's ext `default`,
 * else for `model` the user's default model (undefined here: the runner picks it), else its
 * first option.
 */
function omittedSelect(q: Question): unknown {
  if (q.default !== undefined && (q.options ?? []).includes(q.default)) return q.default;
  if (q.name === 'model') return undefined;
  return q.options?.[0];
}

/** One answer against its question; returns the normalized value or records an error. */
function checkAnswer(q: Question, v: unknown, errors: Record<string, string[]>, acceptModel?: (model: string) => boolean): unknown {
  const add = (m: string) => (errors[q.name] ??= []).push(m);
  if (empty(v)) {
    if (q.required && q.type === 'select') return omittedSelect(q);
    if (q.required) add(say.required(label(q.name)));
    return undefined;
  }
  switch (q.type) {
    case 'select': {
      if (q.name === 'model' && isHostedModel(v)) return undefined;
      const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
      // The `model` question also takes any model a configured provider serves now (GET /api/models).
      const served = q.name === 'model' && typeof s === 'string' && !!acceptModel?.(s);
      if (typeof s !== 'string' || (!(q.options ?? []).includes(s) && !served)) return add(say.invalid(label(q.name)));
      return s;
    }
    case 'number': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) return add(say.must(label(q.name), 'be a number'));
      return n;
    }
    case 'array':
      if (!Array.isArray(v)) return add(say.must(label(q.name), 'be an array'));
      return v;
    case 'boolean': {
      const b = v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 ? false : v;
      if (typeof b !== 'boolean') return add(say.must(label(q.name), 'be true or false'));
      return b;
    }
    default:
      if (typeof v !== 'string' && typeof v !== 'number') return add(say.must(label(q.name), 'be a string'));
      if (String(v).length > 200_000) return add(say.must(label(q.name), 'not be greater than 200000 characters'));
      return String(v);
  }
}

/**
 * The agent's rules over a parsed execute body: its answers against its questions, and whether it
 * needs a conversation. Existence checks (root_id, file_ids) are the caller's, as they need the
 * database; the body's own shape and the conversation's rules were checked when it was parsed.
 */
export function normalizeRequest(agent: Pick<Agent, 'type' | 'questions'>, body: ExecuteRequest, opts: { steeringOptional?: boolean; acceptModel?: (model: string) => boolean } = {}): NormalizedRequest {
  const errors: Record<string, string[]> = {};
  const answers: Record<string, unknown> = {};
  const given = body.answers;

  for (const q of agent.questions) {
    // The conversation and the session are body fields, read when the body was parsed.
    if (BODY_QUESTIONS.has(q.name)) continue;
    // Callers with their own generation settings (OpenAI-compatible, MCP) may leave steering questions unanswered.
    const v = checkAnswer(opts.steeringOptional && STEERING.has(q.name) ? { ...q, required: false } : q, given[q.name], errors, opts.acceptModel);
    if (v !== undefined) answers[q.name] = v;
  }

  const needsMessages = agent.type === 'chat' || agent.questions.some((q) => q.name === 'messages' && q.required);
  if (needsMessages && !body.turns.length) errors.messages = [say.required('messages')];

  if (Object.keys(errors).length) throw new ValidationError(errors);

  const temperature = answers.temperature !== undefined ? Number(answers.temperature) : undefined;
  const tool = typeof answers.tools === 'string' && answers.tools !== 'no-tools' ? answers.tools : null;
  return {
    answers,
    model: typeof answers.model === 'string' ? answers.model : typeof given.model === 'string' && given.model && !isHostedModel(given.model) ? given.model : null,
    temperature: Number.isFinite(temperature) ? temperature : undefined,
    tool,
  };
}

/** A text (or image) agent's prompt, built from its task answers in question order. */
export function promptFromAnswers(agent: Pick<Agent, 'questions'>, answers: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const q of agent.questions) {
    if (STEERING.has(q.name) || answers[q.name] === undefined) continue;
    const v = answers[q.name];
    parts.push(`${q.description || label(q.name)}\n${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  return parts.join('\n\n');
}

/**
 * An image agent's prompt: the user's own words (its text answers, in question order), then the
 * values of its other choices such as a style; never the questions' labels, and never the size,
 * which the provider gets as a parameter.
 */
export function imagePrompt(agent: Pick<Agent, 'questions'>, answers: Record<string, unknown>): string {
  const words: string[] = [];
  const choices: string[] = [];
  for (const q of agent.questions) {
    const v = answers[q.name];
    if (STEERING.has(q.name) || q.name === 'size' || v === undefined || v === '' || v === null) continue;
    if (q.type === 'select' || q.type === 'boolean' || q.type === 'number') choices.push(String(v));
    else words.push(Array.isArray(v) ? v.join('\n') : String(v));
  }
  return [words.join('\n\n'), choices.join(', ')].filter(Boolean).join('\n\n');
}

/**
 * Joins a stored transcript with the client's turns. Clients either send only the new message
 * or the whole history again: the longest prefix of `turns` that repeats the transcript's end is dropped.
 */
export function continueTranscript(transcript: Turn[], turns: Turn[]): { conversation: Turn[]; added: Turn[] } {
  const same = (a: Turn, b: Turn) => a.role === b.role && a.content === b.content;
  let k = Math.min(transcript.length, turns.length - 1);
  for (; k > 0; k--) {
    const tail = transcript.slice(transcript.length - k);
    if (tail.every((t, i) => same(t, turns[i]))) break;
  }
  const added = turns.slice(k);
  return { conversation: [...transcript, ...added], added };
}
