import { ValidationError } from '../../../kernel/errors.js';

/**
 * How deep arrays and objects may nest in a request body. Real bodies (answers, messages with
 * content parts, tool schemas) stay far below; a body 100,000 levels deep parses, but every
 * recursive walk of it afterwards (JSON.stringify when storing it) overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays or objects deeper than `max`, read without parsing (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > max) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return false;
}

/** Depth of a parsed value, walked with a stack of its own (the value may be too deep for recursion). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > deepest) deepest = d + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * 422 naming the top-level field that nests too deeply (`body` when the body itself does).
 * Text that is not JSON at all is left to the usual "malformed JSON" answer.
 */
export function checkJsonDepth(text: string, max = MAX_JSON_DEPTH): void {
  if (!nestsDeeperThan(text, max)) return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  let field = 'body';
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    field = Object.entries(value).find(([, v]) => depthOf(v) > max - 1)?.[0] ?? 'body';
  }
  const what = field === 'body' ? 'The request body' : `The ${field} field`;
  throw ValidationError.field(field, `${what} is nested too deeply (at most ${max} levels of arrays and objects).`);
}
