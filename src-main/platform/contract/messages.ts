import type { z } from 'zod';

/**
 * Validation messages in the hosted platform's (Laravel's) words, so clients that show
 * `message` to people read the same sentences as against the hosted API.
 */
function label(path: PropertyKey[]): string {
  return path.map(String).join('.').replace(/_/g, ' ');
}

interface IssueFields {
  input?: unknown;
  expected?: unknown;
  format?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  keys?: string[];
  divisor?: number | bigint;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const f = label(issue.path.length ? issue.path : ['input']);
  // The issue's own fields (expected, origin, minimum...) differ by code; zod keeps the input on it.
  const i = issue as unknown as IssueFields;
  switch (issue.code) {
    case 'invalid_type': {
      if (i.input === undefined || i.input === null) return `The ${f} field is required.`;
      const expected = String(i.expected);
      if (expected === 'int' || (expected === 'number' && i.format === 'safeint')) return `The ${f} field must be an integer.`;
      if (expected === 'number') return `The ${f} field must be a number.`;
      if (expected === 'string') return `The ${f} field must be a string.`;
      if (expected === 'boolean') return `The ${f} field must be true or false.`;
      if (expected === 'array') return `The ${f} field must be an array.`;
      if (expected === 'object' || expected === 'record') return `The ${f} field must be an object.`;
      return `The ${f} field must be of type ${expected}.`;
    }
    case 'too_small': {
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? `The ${f} field is required.` : `The ${f} field must be at least ${i.minimum} characters.`;
      if (i.origin === 'array' || i.origin === 'set') return `The ${f} field must have at least ${i.minimum} items.`;
      return `The ${f} field must be at least ${i.minimum}.`;
    }
    case 'too_big': {
      if (i.origin === 'string') return `The ${f} field must not be greater than ${i.maximum} characters.`;
      if (i.origin === 'array' || i.origin === 'set') return `The ${f} field must not have more than ${i.maximum} items.`;
      return `The ${f} field must not be greater than ${i.maximum}.`;
    }
    case 'invalid_value':
      return 'input' in i && i.input === undefined ? `The ${f} field is required.` : `The selected ${f} is invalid.`;
    case 'invalid_format':
      if (i.format === 'url') return `The ${f} field must be a valid URL.`;
      if (i.format === 'regex' && issue.message && !issue.message.startsWith('Invalid')) return issue.message;
      return `The ${f} field format is invalid.`;
    case 'unrecognized_keys':
      return `The ${label(issue.path)}${issue.path.length ? ' ' : ''}field has unknown keys: ${(i.keys ?? []).join(', ')}.`;
    case 'not_multiple_of':
      return `The ${f} field must be a multiple of ${i.divisor}.`;
    default:
      return issue.message && !issue.message.startsWith('Invalid') ? issue.message : `The ${f} field is invalid.`;
  }
}

/**
 * The one place the hosted platform's (Laravel's) sentences are written: every 422 a module or a
 * schema words by hand goes through these, so a sentence reads the same wherever it is said.
 * `field` is the name as the sentence shows it (`base url`, `file_ids.0`).
 */
export const say = {
  /** `The title field is required.`; with `when`: `… is required when no key is saved.` */
  required: (field: string, when?: string) => `The ${field} field is required${when ? ` ${when}` : ''}.`,
  /** `The selected agent id is invalid.`; with `hint`: `…is invalid: use user or assistant.` */
  invalid: (field: string, hint?: string) => `The selected ${field} is invalid${hint ? `: ${hint}` : ''}.`,
  /** `The url field must be a valid URL.` */
  must: (field: string, what: string) => `The ${field} field must ${what}.`,
  /** Anything else said of a field: `The url field has a malformed % escape in its file name.` */
  field: (field: string, what: string) => `The ${field} field ${what}.`,
};

/** The value at `path` in `root` (undefined when any step is missing). */
function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/**
 * Zod issues to Laravel's `errors` object: field path → messages. Zod 4 leaves the offending
 * value out of its issues, so pass the validated `input` to tell "missing" from "wrong type".
 */
export function laravelErrors(issues: readonly z.core.$ZodIssue[], input?: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const keyOf = (issue: z.core.$ZodIssue) => (issue.path.length ? issue.path.map(String).join('.') : 'input');
  // A value of the wrong type is said once: the checks zod also ran on it (a string's length
  // measured against an array's item limit) describe a value the client did not mean to send.
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map(keyOf));
  for (const issue of issues) {
    const key = keyOf(issue);
    if (wrongType.has(key) && issue.code !== 'invalid_type') continue;
    const withInput = !('input' in issue) ? ({ ...issue, input: valueAt(input, issue.path) } as z.core.$ZodIssue) : issue;
    (errors[key] ??= []).push(issueMessage(withInput));
  }
  return errors;
}

/**
 * A value a client sent, as a sentence names it, so that it says what was actually wrong: a
 * string in backticks; a value of another type by its type and JSON (`the number 1`); nothing
 * sent as `none`.
 */
export function shownValue(v: unknown): string {
  if (v === undefined) return 'none';
  if (typeof v === 'string') return `\`${v.slice(0, 100)}\``;
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return `the ${typeof v} ${String(v)}`;
  return Array.isArray(v) ? 'a list' : 'an object';
}
