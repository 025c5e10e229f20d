import crypto from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';

/** A tool result holding JSON: as text (every client shows it) and as structured content. */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** An operation's answer as a tool result: its JSON object as structured content, anything else as text. */
export function answerResult(body: unknown): CallToolResult {
  if (body && typeof body === 'object' && !Array.isArray(body)) return jsonResult(body as Record<string, unknown>);
  return { content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body, null, 2) }] };
}

/**
 * An operation's error answer as a tool error: the contract's sentence (`message`), then each field's
 * sentences, the field named by its argument's name where the tool renames it.
 */
export function failureResult(answer: { status: number; body: unknown }, argOf: ReadonlyMap<string, string> = new Map()): CallToolResult {
  const body = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as { message?: unknown; errors?: unknown };
  const message = typeof body.message === 'string' ? body.message : typeof answer.body === 'string' && answer.body ? answer.body : `The request failed (HTTP ${answer.status}).`;
  const errors = body.errors && typeof body.errors === 'object' ? Object.entries(body.errors as Record<string, unknown>) : [];
  const details = errors.map(([field, msgs]) => `${argOf.get(field) ?? field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`);
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
