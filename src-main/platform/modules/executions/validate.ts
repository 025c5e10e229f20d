import type { Agent, Question } from '../../contract/agents.js';
import { coerceMessages, coerceRootId, type ExecuteBody } from '../../contract/executions.js';
import type { Turn } from '../../engine/turn.js';
import { ValidationError } from '../../kernel/errors.js';

/** Body keys that steer the request; every other top-level key is an answer (the spec's examples send model, tools...). */
const CONTROL_KEYS = new Set(['stream', 'wait_execution', 'waitExecution', 'answers', 'file_ids', 'file_id', 'memory_collections']);
/** Questions with their own handling: the conversation and the session. */
const SPECIAL = new Set(['messages', 'root_id']);
/** Answers that steer the model rather than describe the task (left out of a text agent's prompt). */
export const STEERING = new Set(['model', 'temperature', 'tools', 'root_id', 'messages']);

export interface NormalizedRequest {
  answers: Record<string, unknown>;
  /** one developer message, sent first */
  developer: string | null;
  /** the user/assistant turns the client sent */
  turns: Turn[];
  fileIds: number[];
  rootId: number | null;
  /** ext: only memories of these collections enter the context; null: all of the caller's */
  memoryCollections: number[] | null;
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

function contentText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  // OpenAI-style content parts: the text parts joined (other parts are not supported here).
  if (Array.isArray(v) && v.every((p) => p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string')) {
    return v.map((p) => (p as { text: string }).text).join('');
  }
  return null;
}

/**
 * CONTRACT.md "Execution": user/assistant turns alternating and ending on `user`; one `developer`
 * message allowed first; `system` refused.
 */
export function validateMessages(raw: unknown, errors: Record<string, string[]>): { developer: string | null; turns: Turn[] } {
  const add = (k: string, m: string) => (errors[k] ??= []).push(m);
  if (!Array.isArray(raw)) {
    add('messages', 'The messages field must be an array.');
    return { developer: null, turns: [] };
  }
  let developer: string | null = null;
  const turns: Turn[] = [];
  raw.forEach((m, i) => {
    const key = `messages.${i}`;
    if (!m || typeof m !== 'object' || Array.isArray(m)) return add(key, `The ${key} field must be an object with role and content.`);
    const role = (m as { role?: unknown }).role;
    const content = contentText((m as { content?: unknown }).content);
    if (typeof role !== 'string' || !role) return add(`${key}.role`, `The ${key}.role field is required.`);
    if (content === null) return add(`${key}.content`, `The ${key}.content field must be a string.`);
    if (role === 'system') return add(`${key}.role`, `The ${key}.role may not be system: put instructions in the agent, or send one developer message first.`);
    if (role === 'developer') {
      if (i !== 0) return add(`${key}.role`, `Only the first message may be a developer message (${key} is not the first).`);
      developer = content;
      return;
    }
    if (role !== 'user' && role !== 'assistant') return add(`${key}.role`, `The selected ${key}.role is invalid: use user or assistant.`);
    const prev = turns[turns.length - 1];
    if (prev && prev.role === role) return add(`${key}.role`, `The messages must alternate between user and assistant (${key} is a second ${role} message in a row).`);
    turns.push({ role, content });
  });
  if (!Object.keys(errors).some((k) => k.startsWith('messages'))) {
    if (!turns.length) add('messages', 'The messages field must hold at least one user message.');
    else if (turns[turns.length - 1].role !== 'user') add('messages', 'The last message must be from the user.');
  }
  return { developer, turns };
}

/** One answer against its question; returns the normalized value or records an error. */
function checkAnswer(q: Question, v: unknown, errors: Record<string, string[]>, acceptModel?: (model: string) => boolean): unknown {
  const add = (m: string) => (errors[q.name] ??= []).push(m);
  if (empty(v)) {
    if (q.required && q.type === 'select') return omittedSelect(q);
    if (q.required) add(`The ${label(q.name)} field is required.`);
    return undefined;
  }
  switch (q.type) {
    case 'select': {
      if (q.name === 'model' && isHostedModel(v)) return undefined;
      const s = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
      // The `model` question also takes any model a configured provider serves now (GET /api/models).
      const served = q.name === 'model' && typeof s === 'string' && !!acceptModel?.(s);
      if (typeof s !== 'string' || (!(q.options ?? []).includes(s) && !served)) return add(`The selected ${label(q.name)} is invalid.`);
      return s;
    }
    case 'number': {
      const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
      if (typeof n !== 'number' || !Number.isFinite(n)) return add(`The ${label(q.name)} field must be a number.`);
      return n;
    }
    case 'array':
      if (!Array.isArray(v)) return add(`The ${label(q.name)} field must be an array.`);
      return v;
    case 'boolean': {
      const b = v === 'true' || v === '1' || v === 1 ? true : v === 'false' || v === '0' || v === 0 ? false : v;
      if (typeof b !== 'boolean') return add(`The ${label(q.name)} field must be true or false.`);
      return b;
    }
    default:
      if (typeof v !== 'string' && typeof v !== 'number') return add(`The ${label(q.name)} field must be a string.`);
      if (String(v).length > 200_000) return add(`The ${label(q.name)} field must not be greater than 200000 characters.`);
      return String(v);
  }
}

/**
 * Answers may come in `answers` or at the top level; `answers` wins. Validates them against the
 * agent's questions and the conversation against CONTRACT.md's rules. Existence checks (root_id,
 * file_ids) are the caller's, as they need the database.
 */
export function normalizeRequest(agent: Pick<Agent, 'type' | 'questions'>, body: ExecuteBody, opts: { steeringOptional?: boolean; acceptModel?: (model: string) => boolean } = {}): NormalizedRequest {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!CONTROL_KEYS.has(k)) top[k] = v;
  const merged: Record<string, unknown> = { ...top, ...(body.answers ?? {}) };
  const errors: Record<string, string[]> = {};
  const answers: Record<string, unknown> = {};

  for (const q of agent.questions) {
    if (SPECIAL.has(q.name)) continue;
    // Callers with their own generation settings (OpenAI-compatible, MCP) may leave steering questions unanswered.
    const v = checkAnswer(opts.steeringOptional && STEERING.has(q.name) ? { ...q, required: false } : q, merged[q.name], errors, opts.acceptModel);
    if (v !== undefined) answers[q.name] = v;
  }

  let developer: string | null = null;
  let turns: Turn[] = [];
  const rawMessages = coerceMessages(merged.messages);
  const needsMessages = agent.type === 'chat' || agent.questions.some((q) => q.name === 'messages' && q.required);
  if (empty(rawMessages)) {
    if (needsMessages) errors.messages = ['The messages field is required.'];
  } else {
    ({ developer, turns } = validateMessages(rawMessages, errors));
  }

  let rootId: number | null = null;
  const rawRoot = coerceRootId(merged.root_id);
  if (!empty(rawRoot)) {
    const n = typeof rawRoot === 'string' && /^\d+$/.test(rawRoot.trim()) ? Number(rawRoot) : rawRoot;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) errors.root_id = ['The root id field must be an integer.'];
    else rootId = n;
  }

  if (Object.keys(errors).length) throw new ValidationError(errors);

  const temperature = answers.temperature !== undefined ? Number(answers.temperature) : undefined;
  const tool = typeof answers.tools === 'string' && answers.tools !== 'no-tools' ? answers.tools : null;
  return {
    answers,
    developer,
    turns,
    fileIds: [...new Set([...(body.file_ids ?? []), ...(body.file_id !== undefined ? [body.file_id] : [])])],
    rootId,
    memoryCollections: body.memory_collections?.length ? [...new Set(body.memory_collections)] : null,
    model: typeof answers.model === 'string' ? answers.model : typeof merged.model === 'string' && merged.model && !isHostedModel(merged.model) ? merged.model : null,
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
