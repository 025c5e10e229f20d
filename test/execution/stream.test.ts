import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, parseSSE, poll, withFake } from './helpers.js';
import { BASE, KEY } from '../api/helpers.js';
import { tokenGate } from '../fixtures/token-gate.js';
import { readSSE } from '../fixtures/sse-reader.js';

describe('execute: stream', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ tokens: ['Hel', 'lo', ', ', 'wor', 'ld', '!'], delayMs: 2 });
  });
  afterAll(() => env.close());

  it('streams running events whose outputs join to the text, then completed with credits', async () => {
    // Each token leaves the fake only once the event of the one before has arrived: events cannot merge.
    const held = tokenGate();
    env.fake.set({ gate: held.gate });
    const res = await env.p.app.request(`${BASE}/api/agents/${CHAT}/execute`, {
      method: 'POST',
      headers: { host: '127.0.0.1:8787', authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('Say hello', { stream: true })),
    });
    let text = '';
    let seen = 0;
    await readSSE(res, (data) => {
      text += `data: ${data}\n\n`;
      held.allow(++seen);
    });
    env.fake.set({ gate: undefined });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = parseSSE(text);
    const last = events[events.length - 1];
    const running = events.slice(0, -1);
    // The run's first event (it is running, nothing written yet), then one per token the provider sent.
    expect(running.map((e) => e.output)).toEqual(['', 'Hel', 'lo', ', ', 'wor', 'ld', '!']);
    for (const e of events) {
      expect(Object.keys(e).sort()).toEqual(['created_at', 'credits', 'error', 'id', 'output', 'root_id', 'status', 'template_id', 'updated_at']);
      expect(e.id).toBe(events[0].id);
      expect(e.template_id).toBe(CHAT);
      expect(e.root_id).toBe(e.id);
      expect(e.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
    for (const e of running) {
      expect(e.status).toBe('running');
      expect(e.credits).toBeNull();
      expect(e.error).toBeNull();
    }
    expect(running.map((e) => e.output).join('')).toBe('Hello, world!');
    expect(last.status).toBe('completed');
    expect(last.output).toBe('');
    expect(typeof last.credits).toBe('number');
    expect(last.credits).toBeGreaterThan(0.01);

    const stored = await call(env.p, 'GET', `/api/agent-responses/${last.id}`);
    expect(stored.json).toMatchObject({ id: last.id, status: 'succeeded', output: 'Hello, world!', input: 'Say hello', credits: last.credits, error: null, root_id: last.id, template_id: CHAT });
    // The provider got the agent's instructions and the user message.
    const prompt = env.fake.prompts().at(-1)!;
    expect(prompt[0].role).toBe('system');
    expect(prompt[0].content).toContain('helpful');
    expect(prompt.at(-1)).toEqual({ role: 'user', content: 'Say hello' });
    const req = env.fake.requests.at(-1)!;
    expect(req.headers.authorization).toBe('Bearer sk-fake');
    expect(req.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.5, stream: true });
  });

  it('non-stream answers at once with starting, then the record can be polled to succeeded', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('Hi') });
    expect(r.status).toBe(200);
    expect(r.json.template_id).toBe(String(CHAT));
    expect(r.json.responses).toHaveLength(1);
    const e = r.json.responses[0];
    expect(e).toMatchObject({ status: 'starting', output: '', input: 'Hi', credits: 0.01, error: null, template_id: CHAT });
    expect(e.root_id).toBe(e.id);
    const done = await poll(env.p, e.id, (x) => x.status === 'succeeded');
    expect(done.output).toBe('Hello, world!');
    expect(done.credits).toBeGreaterThan(0.01);
  });

  for (const [where, spelling] of [
    ['body', 'wait_execution'],
    ['body', 'waitExecution'],
    ['query', 'wait_execution'],
    ['query', 'waitExecution'],
  ] as const) {
    it(`waits with ${spelling} in the ${where}`, async () => {
      const url = where === 'query' ? `/api/agents/${CHAT}/execute?${spelling}=1` : `/api/agents/${CHAT}/execute`;
      const body = where === 'body' ? chatBody('Hi', { [spelling]: true }) : chatBody('Hi');
      const r = await call(env.p, 'POST', url, { body });
      expect(r.status).toBe(200);
      expect(r.json.template_id).toBe(String(CHAT));
      expect(r.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Hello, world!', input: 'Hi' });
      expect(r.json.responses[0].credits).toBeGreaterThan(0.01);
    });
  }

  it('answers may come inside `answers`, which win over top-level ones', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, {
      body: { model: 'not-a-model', answers: { temperature: '0', model: 'gpt-5', tools: 'no-tools' }, messages: [{ role: 'user', content: 'x' }], wait_execution: true },
    });
    expect(r.status).toBe(200);
    expect(r.json.responses[0].status).toBe('succeeded');
    expect(env.fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-5', temperature: 0 });
  });
});
