import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';

describe('execute: validation (CONTRACT.md "Execution")', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'ok' });
  });
  afterAll(() => env.close());

  const exec = (body: unknown, id: number | string = CHAT) => call(env.p, 'POST', `/api/agents/${id}/execute`, { body });
  // Model calls only: a model no option names is looked up in the providers' model lists (GET /v1/models) first.
  const modelCalls = () => env.fake.requests.filter((r) => r.path !== '/v1/models').length;
  const countBefore = modelCalls;

  // An omitted select takes a default (CONTRACT.md "Compatibility"); other required questions stay required.
  const cases: [string, unknown, string, RegExp, number?][] = [
    ['required question missing', { model: 'gpt-5', length: 'short' }, 'text', /The text field is required\./, 2],
    ['select value outside options', chatBody('x', { model: 'gpt-99' }), 'model', /The selected model is invalid\./],
    ['select temperature outside options', chatBody('x', { temperature: '0.3' }), 'temperature', /The selected temperature is invalid\./],
    ['answers object wins with a bad value', { ...chatBody('x'), answers: { tools: 'telepathy' } }, 'tools', /The selected tools is invalid\./],
    ['messages missing', { temperature: '0', model: 'gpt-5', tools: 'no-tools' }, 'messages', /The messages field is required\./],
    ['messages empty', chatBody('x', { messages: [] }), 'messages', /The messages field is required\./],
    ['messages not an array', chatBody('x', { messages: 42 }), 'messages', /must be an array/],
    ['system role refused', chatBody('x', { messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }] }), 'messages.0.role', /may not be system/],
    ['developer not first', chatBody('x', { messages: [{ role: 'user', content: 'u' }, { role: 'developer', content: 'd' }, { role: 'user', content: 'u2' }] }), 'messages.1.role', /Only the first message may be a developer/],
    ['two user turns in a row', chatBody('x', { messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }] }), 'messages.1.role', /alternate/],
    ['ending on assistant', chatBody('x', { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] }), 'messages', /last message must be from the user/],
    ['unknown role', chatBody('x', { messages: [{ role: 'tool', content: 'a' }] }), 'messages.0.role', /The selected messages\.0\.role is invalid/],
    ['content not a string', chatBody('x', { messages: [{ role: 'user', content: 42 }] }), 'messages.0.content', /invalid|must be a string/],
    ['unknown file_ids', chatBody('x', { file_ids: [999999] }), 'file_ids.0', /The selected file_ids\.0 is invalid\./],
    ['file_ids not integers', chatBody('x', { file_ids: ['abc'] }), 'file_ids.0', /.+/],
    ['unknown root_id', chatBody('x', { root_id: 987654 }), 'root_id', /The selected root id is invalid\./],
    ['root_id not a number', chatBody('x', { root_id: 'abc' }), 'root_id', /.+/],
    ['stream not a boolean', chatBody('x', { stream: 'maybe' }), 'stream', /true or false/],
    ['answers not an object', chatBody('x', { answers: [1, 2] }), 'answers', /.+/],
  ];
  for (const [name, body, field, msg, agent] of cases) {
    it(`422: ${name}`, async () => {
      const before = countBefore();
      const r = await exec(body, agent);
      expect(r.status).toBe(422);
      expect(typeof r.json.message).toBe('string');
      expect(Object.keys(r.json.errors)).toContain(field);
      expect(r.json.errors[field].join(' ')).toMatch(msg);
      expect(modelCalls()).toBe(before); // nothing reached the model
    });
  }

  it('422 for a body that is not an object, 400 for malformed JSON', async () => {
    expect((await exec([1, 2])).status).toBe(422);
    const bad = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { raw: '{"messages": [', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/JSON/);
  });

  it('404 Agent not found for an unknown or malformed agent id', async () => {
    for (const id of ['424242', 'abc', '0']) {
      const r = await exec(chatBody('x'), id);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: 'Agent not found' });
    }
  });

  it('404 Agent response not found', async () => {
    for (const id of ['999999', 'x1', '-1']) {
      const r = await call(env.p, 'GET', `/api/agent-responses/${id}`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ message: 'Agent response not found' });
    }
  });

  it('accepts one developer message first, and numbers for select answers', async () => {
    const r = await exec({ ...chatBody('x', { temperature: 0.75 }), messages: [{ role: 'developer', content: 'Answer in French.' }, { role: 'user', content: 'Hello' }], wait_execution: true });
    expect(r.status).toBe(200);
    expect(r.json.responses[0].status).toBe('succeeded');
    const prompt = env.fake.prompts().at(-1)!;
    expect(prompt[0].content).toContain('Answer in French.');
    expect(env.fake.requests.at(-1)!.body.temperature).toBe(0.75);
  });

  it("another user's execution is not found", async () => {
    const r = await exec({ ...chatBody('x'), wait_execution: true });
    const now = Date.now();
    env.p.db.prepare('INSERT INTO users(id, name, created_at) VALUES (2, ?, ?)').run('Other', now);
    const { key } = env.p.services.keys.create(2, 'other');
    const missing = await call(env.p, 'GET', `/api/agent-responses/${r.json.responses[0].id}`, { key });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: 'Agent response not found' });
    const cancel = await call(env.p, 'POST', `/api/agent-responses/${r.json.responses[0].id}/cancel`, { key });
    expect(cancel.status).toBe(404);
  });
});
