import type { ExecutionContext } from '../contract/executions.js';
import type { Counter } from './tokens.js';

type UsedPassage = ExecutionContext['passages'][number];

/** A passage as a retrieval source ranks it. */
export interface PassageHit {
  file_id: number;
  filename: string | null;
  text: string;
  /** the passage's ordinal in its file */
  ordinal?: number;
  scores?: UsedPassage['scores'];
}

export interface PassageSources {
  passages(fileIds: number[], query: string, limit: number): PassageHit[] | Promise<PassageHit[]>;
  /** A file's passages in order, or null when it has more than `maxPassages` (or none). */
  wholeFile?(fileId: number, maxPassages: number): { filename: string; passages: { ordinal: number; text: string }[] } | null;
}

/** Files beyond this many passages are never read whole (they cannot fit a passage budget anyway). */
const WHOLE_MAX_PASSAGES = 200;
const PASSAGE_OVERHEAD = 8;

/**
 * What the model gets from the user's files, within `budget` tokens: attached files (then
 * linked ones) whose whole text fits go in whole and in order, so "summarize the attached file"
 * works with no word in common; the rest give their best passages for the query. Every passage
 * gets a number n for citations [n].
 */
export async function selectPassages(
  input: { attached: number[]; linked: number[]; query: string; budget: number },
  sources: PassageSources,
  count: Counter,
): Promise<UsedPassage[]> {
  const out: UsedPassage[] = [];
  let spent = 0;
  const whole = new Set<number>();
  const ordered = [...new Set([...input.attached, ...input.linked])];
  if (sources.wholeFile) {
    for (const id of ordered.slice(0, 20)) {
      const f = sources.wholeFile(id, WHOLE_MAX_PASSAGES);
      if (!f) continue;
      const cost = f.passages.reduce((n, p) => n + count(p.text) + PASSAGE_OVERHEAD, 0);
      if (spent + cost > input.budget) continue;
      spent += cost;
      whole.add(id);
      for (const p of f.passages) out.push({ file_id: id, filename: f.filename, text: p.text, position: p.ordinal, scores: { bm25: null, vector: null, fused: null } });
    }
  }
  const rest = ordered.filter((id) => !whole.has(id));
  if (rest.length && input.query.trim()) {
    for (const p of await sources.passages(rest, input.query, 16)) {
      const t = count(p.text) + PASSAGE_OVERHEAD;
      if (spent + t > input.budget) continue;
      spent += t;
      out.push({ file_id: p.file_id, filename: p.filename, text: p.text, ...(p.ordinal !== undefined ? { position: p.ordinal } : {}), ...(p.scores ? { scores: p.scores } : {}) });
    }
  }
  return out.map((p, i) => ({ ...p, n: i + 1, cited: false }));
}

/** The system-prompt section holding the numbered passages. */
export function passagesPrompt(passages: UsedPassage[]): string {
  const body = passages.map((p) => `[${p.n}] ${p.filename ?? `file ${p.file_id}`}${p.position !== undefined ? ` (passage ${p.position + 1})` : ''}\n${p.text}`).join('\n\n');
  return `Numbered passages from the user's files that may help. When you use one, cite its number in square brackets right after the statement, like [1] or [2][3]:\n${body}`;
}

/** The numbers cited as [n] (also [1, 2] and [1][2]) in an answer. */
export function citedNumbers(text: string): Set<number> {
  const out = new Set<number>();
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) for (const n of m[1].split(',')) out.add(Number(n.trim()));
  return out;
}

/** The context with each passage's `cited` set from the answer. */
export function markCited(context: ExecutionContext, answer: string): ExecutionContext {
  if (!context.passages.some((p) => p.n !== undefined)) return context;
  const cited = citedNumbers(answer);
  return { ...context, passages: context.passages.map((p) => (p.n === undefined ? p : { ...p, cited: cited.has(p.n) })) };
}
