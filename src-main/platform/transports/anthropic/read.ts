/**
 * Anthropic's Messages request → the gateway's conversation and tools: system text, text and
 * image blocks, tool_use blocks (the model's calls, sent back with the conversation) and
 * tool_result blocks (the client's results), custom tools and tool_choice.
 */
import type { AnthropicMessagesRequest } from '../../contract/anthropic-messages.js';
import type { ChatMessage, ImageInput, ToolChoice, ToolSpec } from '../../engine/providers/types.js';
import { unsupported } from '../gateway/errors.js';
import { imageInput, type ReadConversation } from '../gateway/input.js';
import { functionSpec } from '../gateway/input.js';
import { shownValue } from '../../contract/messages.js';

type Block = Record<string, unknown> & { type: string };

/** An image block: base64 data (as a data URL) or a URL source. */
function imageOf(b: Block, at: string): ImageInput {
  const src = (b.source && typeof b.source === 'object' ? b.source : {}) as Record<string, unknown>;
  if (src.type === 'base64' && typeof src.media_type === 'string' && typeof src.data === 'string') return imageInput(`data:${src.media_type};base64,${src.data}`, undefined, `${at}.source`);
  if (src.type === 'url') return imageInput(src.url, undefined, `${at}.source`);
  throw unsupported(`${at}.source`, 'An image needs a `base64` source (png, jpeg, gif or webp) or a `url` source.');
}

/** A tool_result's content: a string, or text and image blocks. */
function resultOf(b: Block, at: string): { text: string; images: ImageInput[] } {
  const c = b.content;
  if (c === undefined || typeof c === 'string') return { text: c ?? '', images: [] };
  if (!Array.isArray(c)) throw unsupported(`${at}.content`, 'A tool_result\'s content must be a string or text and image blocks.');
  const texts: string[] = [];
  const images: ImageInput[] = [];
  (c as Block[]).forEach((x, k) => {
    if (x?.type === 'text' && typeof x.text === 'string') texts.push(x.text);
    else if (x?.type === 'image') images.push(imageOf(x, `${at}.content.${k}`));
    else if (x?.type === 'text') throw unsupported(`${at}.content.${k}.text`, `A text block needs its \`text\` as a string (got ${shownValue(x.text)}).`);
    else throw unsupported(`${at}.content.${k}.type`, `Blocks of type ${shownValue(x?.type)} are not supported in a tool_result; send text and image blocks.`);
  });
  return { text: texts.join('\n'), images };
}

export function readAnthropicMessages(body: Pick<AnthropicMessagesRequest, 'system' | 'messages'>): ReadConversation {
  const system: string[] = [];
  if (typeof body.system === 'string') system.push(body.system);
  else for (const b of body.system ?? []) if (b.type === 'text' && typeof b.text === 'string') system.push(b.text);
  const out: ReadConversation = { system: system.filter((s) => s.trim()), messages: [], params: [] };
  const push = (m: ChatMessage, at: string) => {
    out.messages.push(m);
    out.params.push(at);
  };
  body.messages.forEach((m, i) => {
    const at = `messages.${i}`;
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]);
    const texts: string[] = [];
    const images: ImageInput[] = [];
    const calls: { id: string; name: string; arguments: string }[] = [];
    blocks.forEach((b, j) => {
      const bat = `${at}.content.${j}`;
      if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
      else if (b.type === 'image' && m.role === 'user') images.push(imageOf(b, bat));
      else if (b.type === 'tool_use' && m.role === 'assistant') {
        if (typeof b.id !== 'string' || typeof b.name !== 'string') throw unsupported(bat, 'A tool_use block needs its `id`, `name` and `input`.');
        calls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
      } else if (b.type === 'tool_result' && m.role === 'user') {
        if (typeof b.tool_use_id !== 'string') throw unsupported(`${bat}.tool_use_id`, 'A tool_result block needs the `tool_use_id` of the call it answers.');
        const r = resultOf(b, bat);
        const content = b.is_error === true ? `Error: ${r.text}` : r.text;
        // Results come first in a user turn: they answer the assistant turn before it.
        push(r.images.length ? { role: 'tool', toolCallId: b.tool_use_id, content, images: r.images } : { role: 'tool', toolCallId: b.tool_use_id, content }, bat);
      } else if ((b.type === 'thinking' || b.type === 'redacted_thinking') && m.role === 'assistant') {
        // The model's own reasoning from earlier turns: not sent again.
      } else if (b.type === 'text') throw unsupported(`${bat}.text`, `A text block needs its \`text\` as a string (got ${shownValue(b.text)}).`);
      else throw unsupported(`${bat}.type`, `Blocks of type ${shownValue(b.type)} are not supported in ${m.role} messages here.`);
    });
    const text = texts.join('\n');
    if (m.role === 'assistant') {
      if (text || calls.length) push(calls.length ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text }, at);
      return;
    }
    if (text || images.length || !blocks.some((b) => b.type === 'tool_result')) push(images.length ? { role: 'user', content: text, images } : { role: 'user', content: text }, at);
  });
  return out;
}

/** Custom tools only (Anthropic's server tools, such as its web search, are not run here). */
export function readAnthropicTools(tools: AnthropicMessagesRequest['tools']): ToolSpec[] {
  const seen = new Set<string>();
  return (tools ?? []).map((t, i) => {
    if (t.type !== undefined && t.type !== 'custom') throw unsupported(`tools.${i}.type`, `Only custom tools are supported (got ${shownValue(t.type)}); give the agent its own tools in Agent Desk instead.`);
    return functionSpec(t.name, t.description, t.input_schema, `tools.${i}`, seen);
  });
}

/** `tool_choice` → the engine's choice and parallel flag. */
export function readAnthropicToolChoice(raw: AnthropicMessagesRequest['tool_choice'], tools: ToolSpec[]): { toolChoice?: ToolChoice; parallelToolCalls?: boolean } {
  if (!raw) return {};
  const parallel = raw.disable_parallel_tool_use === true ? { parallelToolCalls: false } : {};
  if (raw.type === 'auto' || raw.type === 'none') return { toolChoice: raw.type, ...parallel };
  if (raw.type === 'any') {
    if (!tools.length) throw unsupported('tool_choice', '`tool_choice` {"type": "any"} needs `tools`.');
    return { toolChoice: 'required', ...parallel };
  }
  if (raw.type === 'tool') {
    if (typeof raw.name !== 'string' || !raw.name) throw unsupported('tool_choice.name', '`tool_choice` of type `tool` needs the `name` of one of the request\'s tools.');
    if (!tools.some((t) => t.name === raw.name)) throw unsupported('tool_choice.name', `\`tool_choice\` names the tool \`${raw.name}\`, which is not among the request's tools.`);
    return { toolChoice: { name: raw.name }, ...parallel };
  }
  throw unsupported('tool_choice.type', '`tool_choice.type` must be auto, any, tool or none.');
}
