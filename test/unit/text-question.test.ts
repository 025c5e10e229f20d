/**
 * Which question a person's typed text answers (contract/agent-questions.ts): one rule for the
 * composer, the /v1 doors and MCP's run_agent.
 */
import { describe, expect, it } from 'vitest';
import type { Agent, Question } from '../../src-main/platform/contract/agents.js';
import { textQuestion, textQuestionOf } from '../../src-main/platform/contract/agent-questions.js';
import { answersWithMessage } from '../../src-main/platform/transports/gateway/gateway.js';
import { mainTextQuestion } from '../../src-renderer/stores/answers.js';

const q = (name: string, type: Question['type'], required: boolean): Question => ({ name, type, required, description: name });
const agent = (type: Agent['type'], questions: Question[]) => ({ type, questions }) as Agent;

// The spec's chat agent: temperature, model, tools (selects), root_id, messages.
const specChat = [q('temperature', 'select', true), q('model', 'select', true), q('tools', 'select', true), q('root_id', 'number', false), q('messages', 'array', true)];
const summarizer = [q('model', 'string', true), q('length', 'select', true), q('text', 'string', true)];
const optionalOnly = [q('tools', 'string', false), q('topic', 'string', false), q('audience', 'string', false)];

describe('the question typed text answers', () => {
  it('a chat has none: its text is its conversation', () => {
    expect(textQuestionOf(agent('chat', specChat))).toBeNull();
    expect(textQuestionOf(agent('chat', summarizer))).toBeNull();
  });

  it('the first required free-text question, never a steering or body question', () => {
    expect(textQuestionOf(agent('text', summarizer))?.name).toBe('text');
    expect(textQuestion([q('messages', 'string', true), q('root_id', 'string', true), q('temperature', 'string', true), q('brief', 'string', true)])?.name).toBe('brief');
  });

  it('else the first free-text one; none without free text', () => {
    expect(textQuestionOf(agent('text', optionalOnly))?.name).toBe('topic');
    expect(textQuestionOf(agent('image', [q('size', 'select', true), q('count', 'number', true)]))).toBeNull();
  });

  it('the /v1 doors and MCP put the message there, unless the client answered it', () => {
    expect(answersWithMessage(agent('text', summarizer), { length: 'short' }, 'Rivers.')).toEqual({ length: 'short', text: 'Rivers.' });
    expect(answersWithMessage(agent('text', optionalOnly), undefined, 'Bees.')).toEqual({ topic: 'Bees.' });
    expect(answersWithMessage(agent('text', summarizer), { text: 'Given.' }, 'Rivers.')).toEqual({ text: 'Given.' });
    expect(answersWithMessage(agent('chat', specChat), undefined, 'Hi')).toEqual({});
  });

  it('the composer reads the same rule', () => {
    for (const questions of [specChat, summarizer, optionalOnly]) expect(mainTextQuestion(questions)).toBe(textQuestion(questions));
  });
});
