/**
 * Function calling for the in-process GGUF engine: the tool loop's functions and turns in
 * node-llama-cpp's shapes. The model's chat wrapper decides how calls are written; node-llama-cpp
 * constrains the arguments to the function's schema with a grammar, so the schema is narrowed to
 * the subset its grammar compiler takes.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions, GbnfJsonSchema } from 'node-llama-cpp';
import type { ChatMessage, ToolCall, ToolChoice, ToolSpec } from './types.js';

type Json = Record<string, unknown>;

/** A JSON Schema narrowed to what node-llama-cpp's grammar takes: types, properties, required, items, enum, const, unions. */
export function toGbnfSchema(schema: unknown, depth = 0): GbnfJsonSchema {
  const s = (schema && typeof schema === 'object' ? schema : {}) as Json;
  const out: Json = {};
  if (typeof s.description === 'string') out.description = s.description;
  if (depth > 8) return { type: 'string' } as GbnfJsonSchema;
  if (Array.isArray(s.enum) && s.enum.every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))) return { ...out, enum: s.enum } as GbnfJsonSchema;
  if (s.const !== undefined && (s.const === null || ['string', 'number', 'boolean'].includes(typeof s.const))) return { ...out, const: s.const } as GbnfJsonSchema;
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length) return { ...out, oneOf: union.map((u) => toGbnfSchema(u, depth + 1)) } as GbnfJsonSchema;
  const type = Array.isArray(s.type) ? s.type.filter((t) => typeof t === 'string') : s.type;
  if (Array.isArray(type)) {
    if (type.length === 1) return toGbnfSchema({ ...s, type: type[0] }, depth);
    return { ...out, oneOf: type.map((t) => toGbnfSchema({ ...s, type: t }, depth + 1)) } as GbnfJsonSchema;
  }
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
    case 'null':
      return { ...out, type } as GbnfJsonSchema;
    case 'array':
      return { ...out, type: 'array', items: toGbnfSchema(s.items ?? { type: 'string' }, depth + 1) } as GbnfJsonSchema;
    default: {
      const props = (s.properties && typeof s.properties === 'object' ? s.properties : {}) as Json;
      const names = Object.keys(props);
      const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string' && names.includes(r)) : [];
      return {
        ...out,
        type: 'object',
        properties: Object.fromEntries(names.map((n) => [n, toGbnfSchema(props[n], depth + 1)])),
        required,
      } as GbnfJsonSchema;
    }
  }
}

/**
 * The functions a generation offers under a tool choice: `none` offers none, a named function only
 * that one (the grammar then holds the model to it when it calls); node-llama-cpp cannot force a
 * call, so `required` offers them all.
 */
export function offeredTools(tools: ToolSpec[] | undefined, choice: ToolChoice | undefined): ToolSpec[] {
  if (!tools?.length || choice === 'none') return [];
  if (choice && typeof choice === 'object') return tools.filter((t) => t.name === choice.name);
  return tools;
}

export function ggufFunctions(tools: ToolSpec[]): ChatModelFunctions {
  return Object.fromEntries(tools.map((t) => [t.name, { description: t.description, params: toGbnfSchema(t.parameters) }]));
}

/** The conversation as node-llama-cpp history: a turn's tool calls carry their results (the tool turns that follow). */
export function ggufHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const results = new Map(messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId ?? '', m.content]));
  for (const m of messages) {
    if (m.role === 'system') history.push({ type: 'system', text: m.content });
    else if (m.role === 'user') history.push({ type: 'user', text: m.content });
    else if (m.role === 'assistant') {
      const response: (string | ChatModelFunctionCall)[] = m.content ? [m.content] : [];
      for (const c of m.toolCalls ?? []) {
        let params: unknown = {};
        try {
          params = JSON.parse(c.arguments || '{}');
        } catch {}
        response.push({ type: 'functionCall', name: c.name, params, result: results.get(c.id) ?? '' });
      }
      history.push({ type: 'model', response });
    }
  }
  return history;
}

export function ggufCalls(calls: { functionName: string; params: unknown }[], round: number): ToolCall[] {
  return calls.map((c, i) => ({ id: `gguf_${round}_${i}`, name: c.functionName, arguments: JSON.stringify(c.params ?? {}) }));
}
