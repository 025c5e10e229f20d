import type { ChatMessage } from '../../contract/openai.js';
import { unsupported } from './errors.js';

/** A conversation as the execution engine takes it (CONTRACT.md "Execution"). */
export interface EngineMessage {
  role: 'developer' | 'user' | 'assistant';
  content: string;
}

function textOf(m: ChatMessage, index: number): string {
  const c = m.content;
  if (c === null || c === undefined) return '';
  if (typeof c === 'string') return c;
  const parts: string[] = [];
  for (const part of c) {
    if (part.type === 'text' && typeof part.text === 'string') parts.push(part.text);
    else throw unsupported(`messages[${index}].content`, `Content parts of type \`${part.type}\` are not supported; send text (a string or \`{"type":"text"}\` parts).`);
  }
  return parts.join('\n');
}

/**
 * OpenAI messages → the engine's conversation.
 *
 * System and developer messages, wherever they stand, are joined in order into ONE developer
 * message placed first: the engine puts it after the agent's own instructions, so a client's
 * system prompt adds to an agent's instructions and never replaces them. The engine takes
 * alternating user/assistant turns ending on a user turn: consecutive turns of one role are
 * joined (OpenAI accepts them; a model sees the same text), and empty assistant turns are dropped.
 * Tool and function turns are refused: agents run their own tools inside the engine.
 */
export function toEngineMessages(messages: ChatMessage[]): EngineMessage[] {
  const instructions: string[] = [];
  const turns: EngineMessage[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'tool' || m.role === 'function') {
      throw unsupported(`messages[${i}].role`, `Messages with role \`${m.role}\` are not supported: Agent Desk agents run their own tools. Send system, developer, user and assistant messages.`);
    }
    const text = textOf(m, i);
    if (m.role === 'system' || m.role === 'developer') {
      if (text.trim()) instructions.push(text);
      return;
    }
    if (m.role === 'assistant' && !text) return;
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.content += `\n\n${text}`;
    else turns.push({ role: m.role, content: text });
  });
  if (!turns.length || turns[turns.length - 1].role !== 'user') {
    throw unsupported('messages', 'The messages must end with a user message.');
  }
  return instructions.length ? [{ role: 'developer', content: instructions.join('\n\n') }, ...turns] : turns;
}
