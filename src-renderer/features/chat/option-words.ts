import type { Question } from '../../../src-main/platform/contract/agents';
import { t } from '../../i18n';

/**
 * Words people use for an agent's options: a question's name as a label ("temperature" →
 * "Temperature"), and the chat agent's `tools` answer (the web tools) as what it does ("no-tools"
 * → "No web search", "internet" → "Web search"). Never the raw values the platform stores.
 */

/** The web tools' choices, as the chat agent's `tools` question names them (words: components.options.web). */
const WEB_WORDS = (): Record<string, string> => ({
  'no-tools': t('components.options.noWebSearch'),
  internet: t('components.options.webSearch'),
});

/** Sites a search can be kept to, as people write their names. */
const SITES: Record<string, string> = {
  wikipedia: 'Wikipedia',
  arxiv: 'arXiv',
  github: 'GitHub',
  stackoverflow: 'Stack Overflow',
  reddit: 'Reddit',
  hackernews: 'Hacker News',
  youtube: 'YouTube',
  pubmed: 'PubMed',
};

/** "max_length" → "Max length". */
export function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}

/** The question the web tools hang on (the chat agent's `tools` select). */
export const isWebToolsQuestion = (q: Pick<Question, 'name' | 'type'>) => q.name === 'tools' && q.type === 'select';

/** A web-tools choice in words: "No web search", "Web search", "Search Wikipedia". */
export function webToolWords(value: string): string {
  const web = WEB_WORDS()[value];
  if (web) return web;
  return t('components.options.searchSite', { site: SITES[value] ?? humanize(value) });
}

/** The web tools a choice turns on, as a tool name for the summary: null for none. */
export function webToolName(value: unknown): string | null {
  if (typeof value !== 'string' || !value || value === 'no-tools') return null;
  return value === 'internet' ? t('components.options.webSearch') : t('components.options.siteSearch', { site: SITES[value] ?? humanize(value) });
}

/** A question's label: its name in words. */
export function questionLabel(q: Pick<Question, 'name'>): string {
  if (q.name === 'tools') return t('components.options.webSearch');
  // The common questions' names in the app's words; an agent's own question by its name.
  return (t('components.options.labels', { returnObjects: true }) as Record<string, string>)[q.name] ?? humanize(q.name);
}

/** One option of a select in words (the web tools' own; others are the agent author's words). */
export function optionWords(q: Pick<Question, 'name' | 'type'>, value: string): string {
  return isWebToolsQuestion(q) ? webToolWords(value) : value;
}

/**
 * The one "Tools" summary: the web tools the answer turns on, then the agent's own tools (MCP
 * servers, by name), e.g. "Web search, files"; "No tools" when there are none.
 */
export function toolsSummary(web: unknown, servers: string[]): string {
  const names = [webToolName(web), ...servers].filter((n): n is string => !!n);
  return names.length ? names.join(', ') : t('components.options.noTools');
}

/** An answer as the summary shows it: "0.5", "Short", "On"; null when not answered. */
export function answerWords(q: Pick<Question, 'name' | 'type'>, v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (q.type === 'boolean') return v === true ? t('components.options.on') : t('components.options.off');
  if (Array.isArray(v)) return v.length ? t('components.options.items', { count: v.length }) : null;
  const s = String(v);
  if (q.type === 'select') return optionWords(q, s);
  return s.length > 24 ? `${s.slice(0, 23)}…` : s;
}
