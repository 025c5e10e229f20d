import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { buildContext, type ContextSources } from '../../src-main/platform/engine/context.js';

describe('sessions: root_id continues a stored conversation', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ tokens: (body: any) => [`answer ${body.messages.filter((m: any) => m.role === 'user').length}`] });
  });
  afterAll(() => env.close());

  const exec = (body: unknown) => call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...(body as object), wait_execution: true } });

  it('sends the earlier turns to the provider when the client sends only the new message', async () => {
    const first = (await exec(chatBody('My name is Ada.'))).json.responses[0];
    expect(first.root_id).toBe(first.id);
    expect(first.output).toBe('answer 1');
    const second = (await exec(chatBody('What is my name?', { root_id: first.id }))).json.responses[0];
    expect(second.status).toBe('succeeded');
    expect(second.root_id).toBe(first.id);
    expect(second.id).not.toBe(first.id);
    const turns = env.fake.prompts().at(-1)!.filter((m: any) => m.role !== 'system');
    expect(turns).toEqual([
      { role: 'user', content: 'My name is Ada.' },
      { role: 'assistant', content: 'answer 1' },
      { role: 'user', content: 'What is my name?' },
    ]);
    // A third turn continuing from the second response's id joins the same session.
    const third = (await exec(chatBody('And again?', { answers: { root_id: second.id } }))).json.responses[0];
    expect(third.root_id).toBe(first.id);
    expect(env.fake.prompts().at(-1)!.filter((m: any) => m.role !== 'system')).toHaveLength(5);
  });

  it('does not repeat turns when the client resends the whole history', async () => {
    const first = (await exec(chatBody('One'))).json.responses[0];
    const history = [
      { role: 'user', content: 'One' },
      { role: 'assistant', content: first.output },
      { role: 'user', content: 'Two' },
    ];
    const second = (await exec({ ...chatBody('x'), messages: history, root_id: String(first.id) })).json.responses[0];
    expect(second.root_id).toBe(first.id);
    expect(env.fake.prompts().at(-1)!.filter((m: any) => m.role !== 'system')).toEqual(history);
    expect(second.input).toBe('Two');
  });

  it('executions survive the deletion of their agent', async () => {
    const agent = await call(env.p, 'POST', '/api/agents', { body: { template_id: 'chat-assistant', title: 'Doomed' } });
    expect(agent.status).toBe(201);
    const r = await call(env.p, 'POST', `/api/agents/${agent.json.id}/execute`, { body: { ...chatBody('hi'), wait_execution: true } });
    expect(r.json.responses[0].status).toBe('succeeded');
    expect((await call(env.p, 'DELETE', `/api/agents/${agent.json.id}`)).status).toBe(200);
    const after = await call(env.p, 'GET', `/api/agent-responses/${r.json.responses[0].id}`);
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({ status: 'succeeded', template_id: agent.json.id, output: 'answer 1' });
  });
});

describe('context: memories and file passages reach the prompt, and are recorded', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'Noted.' });
  });
  afterAll(() => env.close());

  it('puts the most relevant memories in the system prompt and lists them on the execution', async () => {
    await call(env.p, 'POST', '/api/memories', { body: { memory: 'The user keeps bees in a garden in Lyon.' } });
    await call(env.p, 'POST', '/api/memories', { body: { memory: 'The user prefers tea over coffee.' } });
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('How are my bees doing in Lyon?'), wait_execution: true } });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const system = env.fake.prompts().at(-1)![0];
    expect(system.role).toBe('system');
    expect(system.content).toContain('bees in a garden in Lyon');
    expect(system.content).not.toContain('tea over coffee');
    const got = await call(env.p, 'GET', `/api/agent-responses/${e.id}`);
    expect(got.json.context.memories.map((m: any) => m.memory)).toEqual(['The user keeps bees in a garden in Lyon.']);
    expect(got.json.context.passages).toEqual([]);
  });

  it('puts passages of attached file_ids and of linked files in the prompt', async () => {
    const files = env.p.services.files;
    const attached = files.createFromBuffer(1, 'orchard.txt', Buffer.from('The orchard has forty apple trees of the Reinette variety.\n\nNothing else grows there.'));
    const linked = files.createFromBuffer(1, 'boat.txt', Buffer.from('The sailing boat is called Marguerite and sleeps four.'));
    await files.process(1, attached.id);
    await files.process(1, linked.id);
    expect(files.get(1, attached.id).status).toBe('completed');
    const link = await call(env.p, 'POST', `/api/agents/${CHAT}/files`, { body: { file_ids: [linked.id] } });
    expect(link.status).toBe(200);

    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, {
      body: { ...chatBody('How many apple trees are in the orchard, and what is the sailing boat called?'), file_ids: [attached.id], wait_execution: true },
    });
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const system = env.fake.prompts().at(-1)![0].content as string;
    expect(system).toContain('forty apple trees');
    expect(system).toContain('Marguerite');
    const got = await call(env.p, 'GET', `/api/agent-responses/${e.id}`);
    const names = got.json.context.passages.map((p: any) => p.filename).sort();
    expect(names).toEqual(['boat.txt', 'orchard.txt']);
  });
});

describe('context builder (unit)', () => {
  const sources = (n = 0): ContextSources => ({
    memories: () => [{ id: 1, memory: 'likes short answers' }],
    passages: () => Array.from({ length: n }, (_, i) => ({ file_id: i + 1, filename: `f${i}.txt`, text: `passage ${i} `.repeat(50) })),
    linkedFileIds: () => [1],
  });
  const base = { userId: 1, agentId: 1, instructions: 'Be brief.', developer: null, query: 'q', fileIds: [], model: 'm' };

  it('keeps the newest turns that fit the window and always starts on a user turn', async () => {
    const conversation = Array.from({ length: 40 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant', content: `turn ${i} `.repeat(40) }));
    conversation.push({ role: 'user', content: 'last question' });
    const built = await buildContext({ ...base, conversation, contextWindow: 2048, reserveOutput: 512 }, sources(3));
    const turns = built.messages.filter((m) => m.role !== 'system');
    expect(turns.length).toBeLessThan(conversation.length);
    expect(turns.at(-1)!.content).toBe('last question');
    expect(turns[0].role).toBe('user');
    expect(built.inputTokens).toBeLessThanOrEqual(2048 - 512);
    expect(built.used.memories).toHaveLength(1);
    // The passage budget (a quarter of the window) holds only some of the passages.
    expect(built.used.passages.length).toBeGreaterThan(0);
    expect(built.used.passages.length).toBeLessThan(3);
  });

  it('fails clearly when the last message alone does not fit', async () => {
    const conversation = [{ role: 'user' as const, content: 'word '.repeat(5000) }];
    await expect(buildContext({ ...base, conversation, contextWindow: 1024, reserveOutput: 256 }, sources())).rejects.toMatchObject({ code: 'context_too_long' });
  });
});
