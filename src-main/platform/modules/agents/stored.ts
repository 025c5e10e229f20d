import { z } from 'zod';
import { Question } from '../../contract/agents.js';
import { ToolServerRef } from '../../contract/tools.js';
import { readStoredJson } from '../../kernel/stored-json.js';

/**
 * Reading an agent's stored JSON columns never throws: a row damaged by a bug, an older version,
 * a hand edit or a hostile source is read with each bad entry left out (and a list that is not
 * JSON as empty), so that every list showing it still answers and the person can open, fix or
 * delete it. Each entry is held to the contract's own schema, as the API's input is.
 */

/** Parses JSON text; undefined when it is not JSON. */
function json(text: unknown): unknown {
  return typeof text === 'string' ? readStoredJson<unknown>(text, { column: 'agents' }, undefined) : undefined;
}

/** The entries of a list that `schema` accepts, each key once; `damaged` when any was left out. */
function entries<T>(raw: unknown, schema: z.ZodType<T>, key: (v: T) => unknown): { value: T[]; damaged: boolean } {
  if (!Array.isArray(raw)) return { value: [], damaged: true };
  const seen = new Set<unknown>();
  const value: T[] = [];
  for (const item of raw) {
    const r = schema.safeParse(item);
    if (!r.success || seen.has(key(r.data))) continue;
    seen.add(key(r.data));
    value.push(r.data);
  }
  return { value, damaged: value.length !== raw.length };
}

/** A select question needs options to be answerable (as the API requires on input). */
const usableQuestion = Question.refine((q) => q.type !== 'select' || (q.options?.length ?? 0) > 0);

/** The questions of a list (parsed JSON, from a row or from outside) that the API would accept, at most 100. */
export function cleanQuestions(raw: unknown): { value: Question[]; damaged: boolean } {
  const r = entries(raw, usableQuestion, (q) => q.name);
  return r.value.length > 100 ? { value: r.value.slice(0, 100), damaged: true } : r;
}

export const storedQuestions = (text: unknown) => cleanQuestions(json(text));

export function storedToolServers(text: unknown): { value: ToolServerRef[]; damaged: boolean } {
  if (text === undefined || text === null) return { value: [], damaged: false };
  return entries(json(text), ToolServerRef, (r) => r.server_id);
}

/** A stored timestamp in microseconds, or 0 (1970) when the column holds something else. */
export const storedMicros = (v: unknown): number => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= 4_102_444_800_000_000 ? v : 0);
