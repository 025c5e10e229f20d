import type { Agent, Question } from '../../../src-main/platform/contract/agents';
import { humanize, webToolWords } from '../chat/option-words';
import { t } from '../../i18n';

/**
 * How the agent editor reads an agent's questions. The spec's questions stay as they are on the
 * wire; the editor shows what a person sets (model, temperature, tools) as settings, keeps the
 * protocol questions (the chat's history and session) out of sight and sends them back untouched,
 * and offers the rest (a text agent's own inputs) as questions to edit.
 */

/** Questions the chat itself fills: the conversation and its stored session. */
export const PROTOCOL_QUESTIONS = new Set(['messages', 'root_id']);

/** Questions shown as one of the editor's settings rather than as a question row. */
export type SettingName = 'model' | 'temperature' | 'tools';
const SETTINGS = new Set<string>(['model', 'temperature', 'tools']);

export function settingOf(q: Pick<Question, 'name' | 'type'>): SettingName | null {
  return q.type === 'select' && SETTINGS.has(q.name) ? (q.name as SettingName) : null;
}

/** A question a person edits as a row (name, kind, description, choices): not protocol, not a setting. */
export function isOwnQuestion(q: Question): boolean {
  return !PROTOCOL_QUESTIONS.has(q.name) && !settingOf(q);
}

/** The choice a run takes when the caller leaves it out: the question's default when it is one of its options, else its first option. */
export function startingChoice(q: Pick<Question, 'options' | 'default'>): string | null {
  const options = q.options ?? [];
  if (q.default !== undefined && options.includes(q.default)) return q.default;
  return options[0] ?? null;
}

/**
 * The question with `value` as its default (null removes the default). A value not among its
 * options joins them, since the platform only takes a default that is one of them.
 */
export function withDefault(q: Question, value: string | null): Question {
  const rest: Question = { ...q };
  delete rest.default;
  if (value === null) return rest;
  const options = q.options ?? [];
  return { ...rest, options: options.includes(value) ? options : [...options, value], default: value };
}

/** "0 (focused)", "0.5", "1 (creative)": the ends of the numeric scale say what they do. */
export function temperatureWords(value: string, options: string[]): string {
  const nums = options.map(Number).filter((n) => Number.isFinite(n));
  const v = Number(value);
  if (nums.length < 2 || !Number.isFinite(v)) return value;
  if (v === Math.min(...nums)) return t('agents.temperature.focused', { value });
  if (v === Math.max(...nums)) return t('agents.temperature.creative', { value });
  return value;
}

/** One web-tools choice of the `tools` question in words, with what it lets the agent do. */
export function webChoice(value: string): { label: string; detail: string } {
  if (value === 'no-tools') return { label: t('agents.web.none'), detail: t('agents.web.noneDetail') };
  if (value === 'internet') return { label: t('agents.web.search'), detail: t('agents.web.searchDetail') };
  return { label: webToolWords(value), detail: t('agents.web.siteDetail') };
}

/** An MCP tool's name as people read it: `read_text_file` → "Read text file", `getTinyImage` → "Get tiny image". */
export function toolLabel(name: string): string {
  return humanize(name);
}

/** A question's kind in words (the value stays the spec's), in the order the editor offers them. */
export const QUESTION_KINDS: Question['type'][] = ['string', 'select', 'number', 'boolean', 'array'];
export const kindWords = (kind: Question['type']): string => t(`agents.kinds.${kind}`);

/** An agent's type as people read it. */
export const typeWords = (type: Agent['type']): string => t(`agents.types.${type}`);
