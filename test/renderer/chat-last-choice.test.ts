// @vitest-environment jsdom
/**
 * A new chat starts from what the person picked for the agent, over the agent's defaults: a
 * temperature nobody picked follows the agent (the Chat agent's near 0.7, an agent's own 0.2), one
 * picked is kept, 0 included. The last choice saved before kept every answer the chat held; there
 * the temperature 0 every chat started on reads as no choice.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Agent, Question } from '../../src-main/platform/contract/agents';
import { saveChoice, savedAnswers } from '../../src-renderer/stores/chat-answers';

const temperature = (def?: string): Question => ({ type: 'select', name: 'temperature', description: '', required: true, options: ['0', '0.25', '0.5', '0.75', '1', ...(def && !['0', '0.25', '0.5', '0.75', '1'].includes(def) ? [def] : [])], ...(def ? { default: def } : {}) });
const agent = (id: number, def?: string): Agent =>
  ({
    id,
    type: 'chat',
    source: 'local',
    questions: [temperature(def), { type: 'select', name: 'model', description: '', required: true, options: ['a', 'b'] }, { type: 'select', name: 'tools', description: '', required: true, options: ['no-tools', 'internet'] }],
  }) as unknown as Agent;

beforeEach(() => localStorage.clear());

describe("a new chat's answers", () => {
  it("start on the agent's own temperature when nobody picked one", () => {
    expect(savedAnswers(agent(1, '0.75')).temperature).toBe('0.75');
    expect(savedAnswers(agent(2, '0.2')).temperature).toBe('0.2');
  });

  it('keep what the person picked, and only that: another pick does not freeze the temperature', () => {
    saveChoice(1, 'model', 'b');
    expect(savedAnswers(agent(1, '0.75'))).toMatchObject({ model: 'b', temperature: '0.75', tools: 'no-tools' });
    saveChoice(1, 'temperature', '0');
    saveChoice(1, 'tools', 'internet');
    expect(savedAnswers(agent(1, '0.75'))).toMatchObject({ model: 'b', temperature: '0', tools: 'internet' });
  });

  it('read a last choice saved the old way without the temperature 0 every chat started on; another temperature there was picked and stays', () => {
    localStorage.setItem('agent-desk.answers.1', JSON.stringify({ model: 'b', temperature: '0', tools: 'no-tools' }));
    expect(savedAnswers(agent(1, '0.75'))).toMatchObject({ model: 'b', temperature: '0.75' });
    localStorage.setItem('agent-desk.answers.1', JSON.stringify({ model: 'b', temperature: '0.5', tools: 'no-tools' }));
    expect(savedAnswers(agent(1, '0.75'))).toMatchObject({ model: 'b', temperature: '0.5' });
    // A new pick goes over the old record.
    saveChoice(1, 'temperature', '1');
    expect(savedAnswers(agent(1, '0.75')).temperature).toBe('1');
  });
});
