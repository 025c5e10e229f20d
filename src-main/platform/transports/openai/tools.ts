import type { ToolChoice, ToolSpec } from '../../engine/providers/types.js';
import { unsupported } from '../gateway/errors.js';
import { functionSpec } from '../gateway/input.js';
import { shownValue } from '../../contract/messages.js';

/** Chat Completions `tools`: functions only (`{type: "function", function: {name, description, parameters}}`). */
export function readChatTools(tools: { type: string; function?: Record<string, unknown> }[] | null | undefined): ToolSpec[] {
  const seen = new Set<string>();
  return (tools ?? []).map((t, i) => {
    if (t.type !== 'function') throw unsupported(`tools[${i}].type`, `Only tools of type \`function\` are supported (got ${shownValue(t.type)}).`);
    if (!t.function || typeof t.function !== 'object') throw unsupported(`tools[${i}].function`, 'A tool of type `function` needs its `function` object: {"name", "description", "parameters"}.');
    return functionSpec(t.function.name, t.function.description, t.function.parameters, `tools[${i}].function`, seen);
  });
}

/**
 * `tool_choice`: `auto`, `none`, `required` or one named function (OpenAI's `{type: "function",
 * function: {name}}`, or the Responses API's `{type: "function", name}`), which must be among
 * the request's tools. `required` and a named function need tools.
 */
export function readToolChoice(raw: unknown, tools: ToolSpec[]): ToolChoice | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (raw === 'auto' || raw === 'none' || raw === 'required') {
    if (raw === 'required' && !tools.length) throw unsupported('tool_choice', '`tool_choice: "required"` needs `tools`.');
    return raw;
  }
  if (typeof raw === 'object' && !Array.isArray(raw) && (raw as { type?: unknown }).type === 'function') {
    const r = raw as { name?: unknown; function?: { name?: unknown } };
    const name = r.function?.name ?? r.name;
    if (typeof name !== 'string') throw unsupported('tool_choice', '`tool_choice` of type `function` needs the `name` of one of the request\'s tools.');
    if (!tools.some((t) => t.name === name)) throw unsupported('tool_choice', `\`tool_choice\` names the function \`${name}\`, which is not among the request's tools.`);
    return { name };
  }
  throw unsupported('tool_choice', '`tool_choice` must be "auto", "none", "required" or {"type": "function", "function": {"name": ...}}.');
}
