/**
 * The Responses API's request → the gateway's conversation and tools: `input` (a string or
 * items), `instructions`, function `tools` (flat: `{type: "function", name, parameters}`).
 */
import type { ResponsesRequest } from '../../contract/openai-responses.js';
import type { ChatMessage, ImageInput, ToolSpec } from '../../engine/providers/types.js';
import { unsupported } from '../gateway/errors.js';
import { imageInput, type ReadConversation } from '../gateway/input.js';
import { functionSpec } from '../gateway/input.js';
import { shownValue } from '../../contract/messages.js';

type Item = Extract<ResponsesRequest['input'], unknown[]>[number];

/** A message item's text and images (`input_text`, `output_text`, `input_image`; files refused). */
function partsOf(content: unknown, at: string, allowImages: boolean): { text: string; images: ImageInput[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  if (!Array.isArray(content)) throw unsupported(`${at}.content`, 'A message\'s `content` must be a string or a list of content parts.');
  const texts: string[] = [];
  const images: ImageInput[] = [];
  content.forEach((raw, j) => {
    const part = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const type = part.type;
    if ((type === 'input_text' || type === 'output_text' || type === 'text') && typeof part.text === 'string') texts.push(part.text);
    else if (type === 'refusal' && typeof part.refusal === 'string') texts.push(part.refusal);
    else if (type === 'input_image' && allowImages) {
      if (typeof part.image_url !== 'string') throw unsupported(`${at}.content[${j}].image_url`, 'Images are read from `image_url` (a data URL or an http(s) URL); `file_id` is not supported.');
      images.push(imageInput(part.image_url, part.detail, `${at}.content[${j}].image_url`));
    } else if (type === 'input_text' || type === 'output_text' || type === 'text' || type === 'refusal') {
      const field = type === 'refusal' ? 'refusal' : 'text';
      throw unsupported(`${at}.content[${j}].${field}`, `A \`${type}\` part needs its \`${field}\` as a string (got ${shownValue(part[field])}).`);
    } else throw unsupported(`${at}.content[${j}].type`, `Content parts of type ${shownValue(type)} are not supported here; send \`input_text\`${allowImages ? ' and `input_image`' : ''} parts.`);
  });
  return { text: texts.join('\n'), images };
}

/** A function_call_output's `output`: a string, or text (and image) parts. */
function outputOf(output: unknown, at: string): { text: string; images: ImageInput[] } {
  if (typeof output === 'string') return { text: output, images: [] };
  if (Array.isArray(output)) return partsOf(output, at.replace(/\.output$/, ''), true);
  throw unsupported(at, 'A `function_call_output` needs its `output` as a string.');
}

/**
 * The items in order: system and developer messages go apart; consecutive `function_call` items
 * (after the assistant message they follow, if any) form one assistant turn with those calls;
 * `function_call_output` items are tool results; reasoning items are left out.
 */
export function readResponsesInput(body: Pick<ResponsesRequest, 'input' | 'instructions'>): ReadConversation {
  const out: ReadConversation = { system: body.instructions?.trim() ? [body.instructions] : [], messages: [], params: [] };
  const push = (m: ChatMessage, at: string) => {
    out.messages.push(m);
    out.params.push(at);
  };
  if (typeof body.input === 'string') {
    push({ role: 'user', content: body.input }, 'input');
    return out;
  }
  body.input.forEach((item: Item, i) => {
    const at = `input[${i}]`;
    const type = item.type ?? (item.role ? 'message' : undefined);
    if (type === 'message') {
      const role = item.role;
      if (role === 'system' || role === 'developer') {
        const { text } = partsOf(item.content, at, false);
        if (text.trim()) out.system.push(text);
        return;
      }
      if (role !== 'user' && role !== 'assistant') throw unsupported(`${at}.role`, 'A message\'s role must be user, assistant, system or developer.');
      const { text, images } = partsOf(item.content, at, role === 'user');
      if (role === 'assistant') {
        if (text) push({ role: 'assistant', content: text }, at);
        return;
      }
      return push(images.length ? { role: 'user', content: text, images } : { role: 'user', content: text }, at);
    }
    if (type === 'function_call') {
      if (!item.call_id || !item.name) throw unsupported(`${at}.call_id`, 'A `function_call` item needs its `call_id`, `name` and `arguments`.');
      const call = { id: item.call_id, name: item.name, arguments: item.arguments ?? '{}' };
      const last = out.messages[out.messages.length - 1];
      if (last?.role === 'assistant') last.toolCalls = [...(last.toolCalls ?? []), call];
      else push({ role: 'assistant', content: '', toolCalls: [call] }, at);
      return;
    }
    if (type === 'function_call_output') {
      if (!item.call_id) throw unsupported(`${at}.call_id`, 'A `function_call_output` item needs the `call_id` of the call it answers.');
      const { text, images } = outputOf(item.output, `${at}.output`);
      return push(images.length ? { role: 'tool', toolCallId: item.call_id, content: text, images } : { role: 'tool', toolCallId: item.call_id, content: text }, at);
    }
    if (type === 'reasoning') return;
    throw unsupported(`${at}.type`, `Input items of type ${shownValue(type)} are not supported: send messages, \`function_call\` and \`function_call_output\` items.`);
  });
  return out;
}

/** Function tools only (the hosted tools, such as web search, run inside the agent instead). */
export function readResponsesTools(tools: ResponsesRequest['tools']): ToolSpec[] {
  const seen = new Set<string>();
  return (tools ?? []).map((t, i) => {
    if (t.type !== 'function') throw unsupported(`tools[${i}].type`, `Only tools of type \`function\` are supported (got ${shownValue(t.type)}); give the agent its own tools in Agent Desk instead.`);
    return functionSpec(t.name, t.description, t.parameters, `tools[${i}]`, seen);
  });
}
