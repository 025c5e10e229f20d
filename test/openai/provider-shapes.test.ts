import { describe, expect, it } from 'vitest';
import { anthropicToolChoice, toAnthropic } from '../../src-main/platform/engine/providers/anthropic.js';
import { OpenAICompatibleProvider, openAIToolChoice, toOpenAIMessages } from '../../src-main/platform/engine/providers/openai-compatible.js';
import { offeredTools } from '../../src-main/platform/engine/providers/gguf-tools.js';
import { GgufProvider } from '../../src-main/platform/engine/providers/gguf.js';

const tools = [
  { name: 'a', description: '', parameters: { type: 'object' } },
  { name: 'b', description: '', parameters: { type: 'object' } },
];

describe('providers: tool choice and images in each provider\'s own shapes', () => {
  it('OpenAI-compatible: image_url parts after the text, tool_choice as OpenAI writes it, images per provider', () => {
    expect(toOpenAIMessages([{ role: 'user', content: 'see', images: [{ url: 'https://x/y.png', detail: 'high' }] }])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'see' }, { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high' } }] },
    ]);
    expect(openAIToolChoice({ name: 'a' })).toEqual({ type: 'function', function: { name: 'a' } });
    expect(openAIToolChoice('required')).toBe('required');
    const openai = new OpenAICompatibleProvider({ id: 'openai', baseUrl: 'https://api.openai.com/v1' });
    expect(openai.imageSupport('gpt-4o-mini')).toBe('url');
    expect(openai.imageSupport('gpt-3.5-turbo')).toBe('none');
    expect(new OpenAICompatibleProvider({ id: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1' }).imageSupport('llava')).toBe('data');
  });

  it('Anthropic: base64 and URL image blocks, images in tool results, tool_choice any/tool/none and the parallel flag', () => {
    const { messages } = toAnthropic([
      { role: 'user', content: 'see', images: [{ url: 'data:image/png;base64,AAAA' }, { url: 'https://x/y.png' }] },
      { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'a', arguments: '{}' }] },
      { role: 'tool', toolCallId: 't1', content: 'shot', images: [{ url: 'data:image/jpeg;base64,BBBB' }] },
    ]);
    expect(messages[0].content).toEqual([
      { type: 'text', text: 'see' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
    ]);
    expect(messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'shot' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBBB' } }] }]);
    expect(anthropicToolChoice('required', undefined)).toEqual({ type: 'any' });
    expect(anthropicToolChoice({ name: 'a' }, false)).toEqual({ type: 'tool', name: 'a', disable_parallel_tool_use: true });
    expect(anthropicToolChoice('none', false)).toEqual({ type: 'none' });
    expect(anthropicToolChoice(undefined, undefined)).toBeUndefined();
    expect(anthropicToolChoice(undefined, false)).toEqual({ type: 'auto', disable_parallel_tool_use: true });
  });

  it('GGUF: none offers no function, a named choice only that one; it reads no images', () => {
    expect(offeredTools(tools, 'none')).toEqual([]);
    expect(offeredTools(tools, { name: 'b' }).map((t) => t.name)).toEqual(['b']);
    expect(offeredTools(tools, 'required')).toHaveLength(2);
    expect(offeredTools(undefined, 'auto')).toEqual([]);
    expect(new GgufProvider({ id: 'local', modelsDir: '/nonexistent' }).imageSupport()).toBe('none');
  });
});
