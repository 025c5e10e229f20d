import crypto from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PlatformError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/log.js';

/** A tool result holding JSON: as text (every client shows it) and as structured content. */
export function jsonResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
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
