import { describe, expect, it } from 'vitest';
import { readChatMessages } from '../../src-main/platform/transports/openai/messages.js';
import { checkConversation, storedTurns } from '../../src-main/platform/transports/gateway/gateway.js';
import { readChatTools, readToolChoice } from '../../src-main/platform/transports/openai/tools.js';
import { OpenAIError } from '../../src-main/platform/transports/gateway/errors.js';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

const param = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(OpenAIError);
    return [(e as OpenAIError).status, (e as OpenAIError).param];
  }
  throw new Error('did not throw');
};
const check = (list: Parameters<typeof readChatMessages>[0]) => checkConversation({ ...readChatMessages(list), param: 'messages' });

describe('OpenAI messages → the gateway conversation', () => {
  it('keeps system and developer text apart, in order, and the turns as they are', () => {
    const r = readChatMessages([
      { role: 'system', content: 'A' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'developer', content: 'B' },
      { role: 'user', content: 'q2' },
    ]);
    expect(r.system).toEqual(['A', 'B']);
    expect(r.messages).toEqual([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ]);
    expect(r.params).toEqual(['messages[1]', 'messages[2]', 'messages[4]']);
  });

  it('reads tool calls, tool results and images; stores them as alternating text turns', () => {
    const r = readChatMessages([
      { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: PNG, detail: 'low' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '18 C' },
    ]);
    expect(r.messages).toEqual([
      { role: 'user', content: 'Weather here?', images: [{ url: PNG, detail: 'low' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
      { role: 'tool', toolCallId: 'call_1', content: '18 C' },
    ]);
    expect(() => checkConversation({ ...r, param: 'messages' })).not.toThrow();
    expect(storedTurns(r.messages, [], false)).toEqual([
      { role: 'user', content: 'Weather here?\n[image]' },
      { role: 'assistant', content: '[Called get_weather {"city":"Paris"}]' },
      { role: 'user', content: '[Result of get_weather]\n18 C' },
    ]);
    expect(storedTurns(r.messages, [], true)).toHaveLength(1);
  });

  it('refuses what it cannot map, naming the parameter', () => {
    expect(param(() => check([{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }]))).toEqual([400, 'messages']);
    expect(param(() => check([{ role: 'developer', content: 'x' }]))).toEqual([400, 'messages']);
    expect(param(() => readChatMessages([{ role: 'user', content: 'x' }, { role: 'function', content: 'y' }]))).toEqual([400, 'messages[1].role']);
    expect(param(() => readChatMessages([{ role: 'user', content: [{ type: 'input_audio' }] }]))).toEqual([400, 'messages[0].content']);
    expect(param(() => readChatMessages([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x/y.png' } }] }]))).toEqual([400, 'messages[0].content[0].image_url']);
    expect(param(() => readChatMessages([{ role: 'tool', content: 'r' }]))).toEqual([400, 'messages[0].tool_call_id']);
    // a result that answers no call, and a call left without its result
    expect(param(() => check([{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'c9', content: 'r' }]))).toEqual([400, 'messages[1].tool_call_id']);
    const call = { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'f', arguments: '{}' } }] };
    expect(param(() => check([{ role: 'user', content: 'x' }, call, { role: 'user', content: 'y' }]))).toEqual([400, 'messages[1].tool_calls']);
  });

  it('reads function tools and every tool_choice form', () => {
    const tools = readChatTools([{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }, { type: 'function', function: { name: 'now' } }]);
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'now']);
    expect(tools[1].parameters).toEqual({ type: 'object', properties: {} });
    expect(readToolChoice('required', tools)).toBe('required');
    expect(readToolChoice({ type: 'function', function: { name: 'now' } }, tools)).toEqual({ name: 'now' });
    expect(readToolChoice({ type: 'function', name: 'now' }, tools)).toEqual({ name: 'now' });
    expect(param(() => readToolChoice({ type: 'function', function: { name: 'nope' } }, tools))).toEqual([400, 'tool_choice']);
    expect(param(() => readToolChoice('required', []))).toEqual([400, 'tool_choice']);
    expect(param(() => readChatTools([{ type: 'web_search' }]))).toEqual([400, 'tools[0].type']);
    expect(param(() => readChatTools([{ type: 'function', function: { name: 'bad name' } }]))).toEqual([400, 'tools[0].function.name']);
  });
});
