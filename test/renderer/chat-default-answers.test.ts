import { describe, expect, it } from 'vitest';
import type { Question } from '../../src-main/platform/contract/agents';
import { defaultAnswers } from '../../src-renderer/stores/answers';

const tools: Question = { type: 'select', name: 'tools', description: 'Web tools', required: true, options: ['no-tools', 'internet', 'wikipedia'] };

/** A new chat starts on what the agent was saved with (the editor's "New conversations start with"), not on the first option. */
describe('a new chat\'s starting answers', () => {
  it('take a select question\'s saved default', () => {
    expect(defaultAnswers([{ ...tools, default: 'internet' }]).tools).toBe('internet');
  });

  it('fall back to the first option without a default, or with one that is not an option', () => {
    expect(defaultAnswers([tools]).tools).toBe('no-tools');
    expect(defaultAnswers([{ ...tools, default: 'gopher' }]).tools).toBe('no-tools');
  });
});
