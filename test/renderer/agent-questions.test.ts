import { describe, expect, it } from 'vitest';
import type { Question } from '../../src-main/platform/contract/agents';
import { isOwnQuestion, settingOf, startingChoice, temperatureWords, toolLabel, webChoice, withDefault } from '../../src-renderer/features/agents/agent-questions';

const tools: Question = { type: 'select', name: 'tools', description: 'Tools', required: true, options: ['no-tools', 'internet', 'wikipedia'] };

describe('the agent editor reads questions', () => {
  it('keeps the chat’s own questions and the settings out of the question rows', () => {
    const q = (name: string, type: Question['type'] = 'select'): Question => ({ type, name, description: '', required: true, options: type === 'select' ? ['a'] : undefined });
    expect(isOwnQuestion(q('root_id', 'number'))).toBe(false);
    expect(isOwnQuestion(q('messages', 'array'))).toBe(false);
    expect(['model', 'temperature', 'tools'].map((n) => settingOf(q(n)))).toEqual(['model', 'temperature', 'tools']);
    expect(isOwnQuestion(q('tools'))).toBe(false);
    // A `tools` that is not a choice is an ordinary question.
    expect(settingOf(q('tools', 'string'))).toBeNull();
    expect(isOwnQuestion(q('length'))).toBe(true);
  });

  it('sets a default among the options, adds a new one to them, and removes it without touching the rest', () => {
    expect(startingChoice(tools)).toBe('no-tools');
    const web = withDefault(tools, 'internet');
    expect(web).toEqual({ ...tools, default: 'internet' });
    expect(startingChoice(web)).toBe('internet');
    expect(withDefault(tools, 'gpt-x').options).toEqual(['no-tools', 'internet', 'wikipedia', 'gpt-x']);
    expect(JSON.stringify(withDefault(web, null))).toBe(JSON.stringify(tools));
    // A default no longer among the options is not what runs.
    expect(startingChoice({ options: ['a', 'b'], default: 'z' })).toBe('a');
  });

  it('says choices in words, never raw values', () => {
    expect(webChoice('no-tools').label).toBe('No web tools');
    expect(webChoice('internet')).toEqual({ label: 'Web search', detail: 'Searches the web and reads the pages it finds.' });
    expect(webChoice('stackoverflow').label).toBe('Search Stack Overflow');
    expect(toolLabel('read_text_file')).toBe('Read text file');
    expect(toolLabel('getTinyImage')).toBe('Get tiny image');
    const temps = ['0', '0.25', '0.5', '0.75', '1'];
    expect(temps.map((t) => temperatureWords(t, temps))).toEqual(['0 (focused)', '0.25', '0.5', '0.75', '1 (creative)']);
  });
});
