import crypto from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';
import { say } from '../../contract/messages.js';

/** A tool result holding JSON: as text (every client shows it) and as structured content. */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** An operation's answer as a tool result: its JSON object as structured content, anything else as text. */
export function answerResult(body: unknown): CallToolResult {
  if (body && typeof body === 'object' && !Array.isArray(body)) return jsonResult(body as Record<string, unknown>);
  return { content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body, null, 2) }] };
}

/** A field key as the contract's sentences name it (`file_id` → `file id`, `q.0` stays `q.0`). */
const shownField = (key: string) => key.replace(/_/g, ' ');

/**
 * A field's sentence with the field named by its argument's name: only where the sentence starts
 * with one of the openings the contract's sentence builder names a field with (say.field's and
 * say.invalid's), or a header's own opening.
 */
function renamedSentence(sentence: string, key: string, argKey: string): string {
  const MARK = '\u0000';
  // The openings say.field and say.invalid write for this field, cut where the rest of the sentence starts.
  const forms = (f: string) => [say.field(f, MARK).slice(0, say.field(f, MARK).indexOf(MARK)), say.invalid(f).slice(0, -1)];
  const from = forms(shownField(key));
  const to = forms(shownField(argKey));
  // A header's sentence names it as a header (`The x-workspace-id header must …`); to the tool it is an argument.
  from.push(`The ${key} header `);
  to.push(to[0]!);
  const i = from.findIndex((form) => sentence.startsWith(form));
  return i < 0 ? sentence : to[i] + sentence.slice(from[i]!.length);
}

/**
 * An operation's error answer as a tool error: the contract's sentence (`message`), then each field's
 * sentences, the field named by its argument's name where the tool renames it (its key and its sentences).
 */
export function failureResult(answer: { status: number; body: unknown }, argOf: ReadonlyMap<string, string> = new Map()): CallToolResult {
  const body = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as { message?: unknown; errors?: unknown };
  let message = typeof body.message === 'string' ? body.message : typeof answer.body === 'string' && answer.body ? answer.body : `The request failed (HTTP ${answer.status}).`;
  const errors = body.errors && typeof body.errors === 'object' ? Object.entries(body.errors as Record<string, unknown>) : [];
  const details = errors.map(([field, msgs], n) => {
    const [head, ...rest] = field.split('.');
    const arg = argOf.get(head!);
    if (arg === undefined) return `${field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`;
    const argKey = [arg, ...rest].join('.');
    if (!Array.isArray(msgs)) return `${argKey}: ${String(msgs)}`;
    const said = msgs.map((m) => (typeof m === 'string' ? renamedSentence(m, field, argKey) : String(m)));
    // `message` is the first field's first sentence (and a count of the rest).
    if (n === 0 && typeof msgs[0] === 'string' && message.startsWith(msgs[0])) message = said[0] + message.slice(msgs[0].length);
    return `${argKey}: ${said.join(' ')}`;
  });
  return { isError: true, content: [{ type: 'text', text: [message, ...details].join('\n') }] };
}

export function textResult(text: string, structured?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: structured } : {}) };
}

/**
 * A service error becomes a tool error the model can read and act on (`isError`, the platform's own
 * message); an unexpected fault is logged with a reference and never shows internals.
 */
export function errorResult(err: unknown, log: Logger, tool: string): CallToolResult {
  if (err instanceof ValidationError) {
    const details = Object.entries(err.errors).map(([field, msgs]) => `${field}: ${msgs.join(' ')}`);
    return { isError: true, content: [{ type: 'text', text: [err.message, ...details].join('\n') }] };
  }
  if (err instanceof PlatformError) return { isError: true, content: [{ type: 'text', text: err.message }] };
  const ref = crypto.randomBytes(4).toString('hex');
  log.error({ err, ref, tool }, 'MCP tool failed');
  return { isError: true, content: [{ type: 'text', text: `Internal error (ref ${ref}); see the Agent Desk log.` }] };
}
