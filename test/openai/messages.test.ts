import { describe, expect, it } from 'vitest';
import { toEngineMessages } from '../../src-main/platform/transports/openai/messages.js';
import { OpenAIError } from '../../src-main/platform/transports/openai/errors.js';

describe('OpenAI messages → the engine conversation', () => {
  it('joins every system and developer message, in order, into one developer message first', () => {
    expect(
      toEngineMessages([
        { role: 'system', content: 'A' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'developer', content: 'B' },
        { role: 'user', content: 'q2' },
      ]),
    ).toEqual([
      { role: 'developer', content: 'A\n\nB' },
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: 'a1' },
      { role: 'user', content: 'q2' },
    ]);
  });

  it('joins consecutive turns of one role, reads text parts, drops empty assistant turns', () => {
    expect(
      toEngineMessages([
        { role: 'user', content: 'one' },
        { role: 'assistant', content: null },
        { role: 'user', content: [{ type: 'text', text: 'two' }, { type: 'text', text: 'three' }] },
      ]),
    ).toEqual([{ role: 'user', content: 'one\n\ntwo\nthree' }]);
    expect(toEngineMessages([{ role: 'system', content: '   ' }, { role: 'user', content: 'hi' }])).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('refuses what it cannot map, naming the parameter', () => {
    const param = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(OpenAIError);
        return [(e as OpenAIError).status, (e as OpenAIError).param];
      }
      throw new Error('did not throw');
    };
    expect(param(() => toEngineMessages([{ role: 'user', content: 'x' }, { role: 'assistant', content: 'y' }]))).toEqual([400, 'messages']);
    expect(param(() => toEngineMessages([{ role: 'developer', content: 'x' }]))).toEqual([400, 'messages']);
    expect(param(() => toEngineMessages([{ role: 'user', content: 'x' }, { role: 'function', content: 'y' }]))).toEqual([400, 'messages[1].role']);
    expect(param(() => toEngineMessages([{ role: 'user', content: [{ type: 'input_audio' }] }]))).toEqual([400, 'messages[0].content']);
  });
});
