/**
 * The execute body is read once, by the contract's schema (the route's, and parseExecuteBody for
 * callers inside the platform): the hosted clients' leniencies (CONTRACT.md "Compatibility with
 * hosted clients", "Execution") become one typed request the executions service takes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ExecuteBody, parseExecuteBody } from '../../src-main/platform/contract/executions.js';
import { MAX_MESSAGE_CHARS } from '../../src-main/platform/kernel/message-limits.js';
import { call, closePlatform, makePlatform } from '../api/helpers.js';

const errorsOf = (raw: unknown): Record<string, string[]> => {
  try {
    parseExecuteBody(raw);
  } catch (err) {
    return (err as { errors: Record<string, string[]> }).errors;
  }
  throw new Error(`accepted: ${JSON.stringify(raw)}`);
};

describe('execute body: the leniencies, read in one place', () => {
  it('answers may come at the top level or in `answers`; `answers` wins', () => {
    const r = parseExecuteBody({ model: 'gpt-5', temperature: '0.5', answers: { model: 'gpt-4o-mini' }, stream: 'true' });
    expect(r.answers).toEqual({ model: 'gpt-4o-mini', temperature: '0.5' });
    expect(r.stream).toBe(true);
  });

  it('messages as a JSON string holding an array is parsed; any other string is one user message', () => {
    expect(parseExecuteBody({ messages: '[{"role":"user","content":"first"},{"role":"assistant","content":"reply"},{"role":"user","content":"second"}]' }).turns).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'reply' },
      { role: 'user', content: 'second' },
    ]);
    expect(parseExecuteBody({ messages: 'Just a question?' }).turns).toEqual([{ role: 'user', content: 'Just a question?' }]);
    expect(parseExecuteBody({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }] }] }).turns).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('one developer message first is kept apart from the turns', () => {
    const r = parseExecuteBody({ messages: [{ role: 'developer', content: 'Answer in French.' }, { role: 'user', content: 'Hello' }] });
    expect(r.developer).toBe('Answer in French.');
    expect(r.turns).toEqual([{ role: 'user', content: 'Hello' }]);
  });

  it('root_id 0 or null starts a new session; a numeric string is the id', () => {
    for (const root_id of [0, null, '0', '']) expect(parseExecuteBody({ root_id }).rootId, String(root_id)).toBeNull();
    expect(parseExecuteBody({ root_id: '12' }).rootId).toBe(12);
  });

  it('file_id joins file_ids (each once); one memory collection is a list; wait_execution has two spellings', () => {
    expect(parseExecuteBody({ file_ids: [3, '4'], file_id: 4 }).fileIds).toEqual([3, 4]);
    expect(parseExecuteBody({ memory_collections: 2 }).memoryCollections).toEqual([2]);
    expect(parseExecuteBody({}).memoryCollections).toBeNull();
    expect(parseExecuteBody({ waitExecution: 1 }).wait).toBe(true);
    expect(parseExecuteBody({ wait_execution: 'false' }).wait).toBe(false);
  });

  it('messages and root_id given inside `answers` are read from there, by the same rules', () => {
    const r = parseExecuteBody({ messages: 'ignored', root_id: 5, answers: { messages: 'From answers', root_id: 0 } });
    expect(r.turns).toEqual([{ role: 'user', content: 'From answers' }]);
    expect(r.rootId).toBeNull();
    expect(r.answers).toEqual({});
    // The same rules hold wherever they sit (the cap on a message too), named where they sit.
    expect(errorsOf({ answers: { messages: [{ role: 'user', content: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }] } })).toEqual({
      'answers.messages.0.content': [`The answers.messages.0.content field must not be greater than ${MAX_MESSAGE_CHARS} characters.`],
    });
    expect(errorsOf({ root_id: 'abc' })).toEqual({ root_id: ['The root id field must be a number.'] });
    expect(errorsOf({ answers: { root_id: 'abc' } })).toEqual({ 'answers.root_id': ['The answers.root id field must be a number.'] });
  });

  it("the conversation's rules, with the contract's messages", () => {
    expect(errorsOf({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] })['messages.0.role'][0]).toMatch(/may not be system/);
    expect(errorsOf({ messages: [{ role: 'user', content: 'u' }, { role: 'developer', content: 'd' }] })['messages.1.role'][0]).toMatch(/Only the first message may be a developer message/);
    expect(errorsOf({ messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] })['messages.1.role'][0]).toMatch(/alternate/);
    expect(errorsOf({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }).messages).toEqual(['The last message must be from the user.']);
    expect(errorsOf({ messages: [{ role: 'developer', content: 'd' }] }).messages).toEqual(['The messages field must hold at least one user message.']);
    expect(errorsOf({ messages: [{ role: 'tool', content: 'a' }] })['messages.0.role'][0]).toMatch(/The selected messages\.0\.role is invalid/);
    expect(errorsOf({ messages: [{ role: 'user', content: [{ type: 'image_url' }] }] })['messages.0.content']).toEqual(['The messages.0.content field must be a string.']);
    expect(parseExecuteBody({ messages: [] }).turns).toEqual([]);
  });

  it('a branch is parent_id or alternative_of, not both', () => {
    expect(parseExecuteBody({ parent_id: '7' }).parentId).toBe(7);
    expect(errorsOf({ parent_id: 7, alternative_of: 7 }).alternative_of).toEqual(['Give either alternative_of or parent_id, not both.']);
  });

  it('the route uses this very schema', async () => {
    expect(ExecuteBody.safeParse({ root_id: 0 }).success).toBe(true);
  });
});

describe('over HTTP, one reading: the route refuses by the same rules wherever the fields sit', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));
  const exec = (body: unknown) => call(p, 'POST', '/api/agents/1/execute', { body });

  it('root_id and messages inside answers are refused as at the top level, before anything runs', async () => {
    const before = (p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;
    const inside = await exec({ answers: { root_id: 'abc' }, messages: [{ role: 'user', content: 'x' }] });
    expect(inside.status).toBe(422);
    expect(inside.json).toEqual({ message: 'The answers.root id field must be a number.', errors: { 'answers.root_id': ['The answers.root id field must be a number.'] } });
    const system = await exec({ answers: { messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] } });
    expect(system.status).toBe(422);
    expect(system.json.errors).toEqual({ 'answers.messages.0.role': ['The answers.messages.0.role may not be system: put instructions in the agent, or send one developer message first.'] });
    const huge = await exec({ answers: { messages: [{ role: 'user', content: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }] } });
    expect(huge.status).toBe(422);
    expect(Object.keys(huge.json.errors)).toEqual(['answers.messages.0.content']);
    expect((p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n).toBe(before);
  });
});
