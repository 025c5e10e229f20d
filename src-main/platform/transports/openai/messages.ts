import type { ChatMessage as OpenAIMessage } from '../../contract/openai.js';
import type { ChatMessage, ImageInput } from '../../engine/providers/types.js';
import { unsupported } from '../gateway/errors.js';
import { imageInput, type ReadConversation } from '../gateway/input.js';

/** A message's text and images; other part kinds (audio, files) are refused by name. */
function contentOf(m: OpenAIMessage, at: string, allowImages: boolean): { text: string; images: ImageInput[] } {
  const c = m.content;
  if (c === null || c === undefined) return { text: '', images: [] };
  if (typeof c === 'string') return { text: c, images: [] };
  const parts: string[] = [];
  const images: ImageInput[] = [];
  c.forEach((part, j) => {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else if (part.type === 'refusal' && m.role === 'assistant' && typeof part.refusal === 'string') parts.push(part.refusal);
    else if (part.type === 'image_url' && allowImages) {
      const img = part.image_url as { url?: unknown; detail?: unknown } | string | undefined;
      images.push(imageInput(typeof img === 'string' ? img : img?.url, typeof img === 'object' ? img?.detail : undefined, `${at}.content[${j}].image_url`));
    } else {
      const what = allowImages ? 'text (a string or `{"type":"text"}` parts) and `image_url` parts' : 'text (a string or `{"type":"text"}` parts)';
      throw unsupported(`${at}.content`, `Content parts of type \`${part.type}\` are not supported here; send ${what}.`);
    }
  });
  return { text: parts.join('\n'), images };
}

/**
 * OpenAI chat messages → the gateway's conversation. System and developer messages, wherever
 * they stand, go apart in order (the agent's instructions come first, they are added after);
 * assistant messages keep their `tool_calls`, `tool` messages answer them; user messages may hold
 * `image_url` parts. Empty assistant turns are dropped. The legacy `function` role is refused.
 */
export function readChatMessages(list: OpenAIMessage[]): ReadConversation {
  const out: ReadConversation = { system: [], messages: [], params: [] };
  list.forEach((m, i) => {
    const at = `messages[${i}]`;
    if (m.role === 'function') {
      throw unsupported(`${at}.role`, 'Messages with role `function` (the legacy function-calling API) are not supported: send `tool` messages with a `tool_call_id`.');
    }
    const { text, images } = contentOf(m, at, m.role === 'user');
    if (m.role === 'system' || m.role === 'developer') {
      if (text.trim()) out.system.push(text);
      return;
    }
    const push = (msg: ChatMessage) => {
      out.messages.push(msg);
      out.params.push(at);
    };
    if (m.role === 'tool') {
      if (!m.tool_call_id) throw unsupported(`${at}.tool_call_id`, 'A `tool` message needs the `tool_call_id` of the call it answers.');
      return push({ role: 'tool', toolCallId: m.tool_call_id, content: text });
    }
    if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      if (!text && !calls.length) return;
      return push(calls.length ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text });
    }
    push(images.length ? { role: 'user', content: text, images } : { role: 'user', content: text });
  });
  return out;
}
