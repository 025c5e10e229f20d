/** ext GET /api/sessions, GET|DELETE /api/sessions/{id}: sessions are the executions sharing a root_id. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, poll, withFake } from './helpers.js';
import { ISO_MICROS, expectSession, expectSessionDetail, expectShapeB } from '../api/spec-shapes.js';

describe('sessions', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let other: string;
  beforeAll(async () => {
    env = await withFake({ reply: 'noted', delayMs: 1 });
    const uid = Number(env.p.db.prepare("INSERT INTO users(name, selected_workspace_id, created_at) VALUES ('Other', 1, 0)").run().lastInsertRowid);
    other = env.p.services.keys.create(uid, 'other').key;
  });
  afterAll(async () => env?.close());

  const turn = async (content: string, root?: number, agent = CHAT, body: Record<string, unknown> = {}) =>
    (await call(env.p, 'POST', `/api/agents/${agent}/execute`, { body: { ...chatBody(content, { ...(root ? { root_id: root } : {}), ...body }), wait_execution: true } })).json.responses[0];

  let first: any;
  let second: any;
  it('lists sessions newest activity first, in shape B, with title, turns, last status and times', async () => {
    const long = `  Plan   a\ntrip to ${'x'.repeat(100)}`;
    first = await turn(long);
    second = await turn('Second session');
    const cont = await turn('and then?', first.id);
    expect(cont.root_id).toBe(first.id);
    const failed = await turn('fails', undefined, CHAT, { model: 'claude-sonnet-4-5' });
    expect(failed.status).toBe('failed');

    const r = await call(env.p, 'GET', '/api/sessions');
    expect(r.status).toBe(200);
    const page = r.json;
    expectShapeB(page);
    page.data.forEach(expectSession);
    expect(page).toMatchObject({ current_page: 1, per_page: 15, total: 3, from: 1, to: 3 });
    expect(page.data.map((s: any) => s.id)).toEqual([failed.id, first.id, second.id]);
    const s = page.data[1];
    expect(s).toEqual({
      id: first.id,
      agent_id: CHAT,
      title: `Plan a trip to ${'x'.repeat(100)}`.slice(0, 80),
      turns: 2,
      last_status: 'succeeded',
      created_at: first.created_at,
      updated_at: expect.stringMatching(ISO_MICROS),
      schedule: null,
      pinned: false,
      archived: false,
      instructions: null,
      options: {},
    });
    expect(s.title).toHaveLength(80);
    expect(s.updated_at >= cont.updated_at).toBe(true);
    expect(page.data[0]).toMatchObject({ last_status: 'failed', turns: 1, title: 'fails' });

    const paged = (await call(env.p, 'GET', '/api/sessions?per_page=2&page=2')).json;
    expectShapeB(paged);
    expect(paged).toMatchObject({ total: 3, last_page: 2, from: 3, to: 3 });
    expect(paged.data.map((x: any) => x.id)).toEqual([second.id]);
    expect(paged.prev_page_url).toBe('http://127.0.0.1:8787/api/sessions?page=1&per_page=2');
  });

  it('filters by agent_id; refuses bad query values with 422', async () => {
    const agent = await call(env.p, 'POST', '/api/agents', { body: { title: 'Other chat', type: 'chat', questions: [] } });
    const id = agent.json.id as number;
    const mine = (await call(env.p, 'POST', `/api/agents/${id}/execute`, { body: { messages: [{ role: 'user', content: 'for the other agent' }], wait_execution: true } })).json.responses[0];
    const only = (await call(env.p, 'GET', `/api/sessions?agent_id=${id}`)).json;
    expectShapeB(only);
    only.data.forEach(expectSession);
    expect(only.data).toEqual([expect.objectContaining({ id: mine.id, agent_id: id, title: 'for the other agent' })]);
    expect((await call(env.p, 'GET', `/api/sessions?agent_id=${CHAT}`)).json.total).toBe(3);
    for (const q of ['agent_id=abc', 'agent_id=0', 'per_page=101', 'page=0']) {
      const bad = await call(env.p, 'GET', `/api/sessions?${q}`);
      expect(bad.status, q).toBe(422);
      expect(bad.json.errors).toBeTypeOf('object');
    }
  });

  it('GET /api/sessions/{id} gives its executions in order, each the agent-responses shape', async () => {
    const r = await call(env.p, 'GET', `/api/sessions/${first.id}`);
    expect(r.status).toBe(200);
    const d = r.json;
    expectSessionDetail(d);
    expect(d).toMatchObject({ id: first.id, agent_id: CHAT, turns: 2, title: first.input.replace(/\s+/g, ' ').trim().slice(0, 80) });
    expect(d.executions.map((e: any) => e.input)).toEqual([expect.stringContaining('Plan'), 'and then?']);
    // Each is the agent-responses shape, plus the ext parent_id of branches and the answers it ran with.
    for (const { parent_id: _parent, answers, ...e } of r.json.executions) {
      expect(e).toEqual((await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json);
      expect(answers).toEqual({ model: 'gpt-4o-mini', temperature: '0.5', tools: 'no-tools' });
    }
    expect(d.earlier).toEqual([]);
    // A session started from a given history (the app's regenerate) carries it in `earlier`.
    const messages = [{ role: 'user', content: 'Q1' }, { role: 'assistant', content: 'A1' }, { role: 'user', content: 'Q2' }];
    const branch = (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), messages, wait_execution: true } })).json.responses[0];
    const b = (await call(env.p, 'GET', `/api/sessions/${branch.id}`)).json;
    expectSessionDetail(b);
    expect(b).toMatchObject({ title: 'Q1', turns: 1, earlier: messages.slice(0, 2) });
    expect(b.executions.map((e: any) => e.input)).toEqual(['Q2']);
    expect((await call(env.p, 'DELETE', `/api/sessions/${branch.id}`)).status).toBe(200);
  });

  it("unknown, malformed and other users' ids are 404 Session not found", async () => {
    for (const [id, key] of [['999999', undefined], ['abc', undefined], ['-1', undefined], [String(first.id), other]] as const) {
      for (const method of ['GET', 'DELETE']) {
        const r = await call(env.p, method, `/api/sessions/${id}`, { key });
        expect(r.status, `${method} ${id}`).toBe(404);
        expect(r.json).toEqual({ message: 'Session not found' });
      }
    }
    // A continuation's own id is not a session id.
    const list = (await call(env.p, 'GET', `/api/sessions/${first.id}`)).json.executions;
    expect((await call(env.p, 'GET', `/api/sessions/${list[1].id}`)).status).toBe(404);
    expect((await call(env.p, 'GET', '/api/sessions', { key: other })).json.total).toBe(0);
  });

  it('DELETE removes its executions (409 while one runs), and continuing it is then refused', async () => {
    env.fake.set({ reply: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '), delayMs: 20 });
    const running = (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('long one', { root_id: second.id }) })).json.responses[0];
    await poll(env.p, running.id, (x) => x.status === 'running');
    const busy = await call(env.p, 'DELETE', `/api/sessions/${second.id}`);
    expect(busy.status).toBe(409);
    expect(busy.json.message).toMatch(/running/);
    await call(env.p, 'POST', `/api/agent-responses/${running.id}/cancel`);
    env.fake.set({ reply: 'noted', delayMs: 1 });

    const r = await call(env.p, 'DELETE', `/api/sessions/${second.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: second.id, deleted: true });
    expect((await call(env.p, 'GET', `/api/agent-responses/${second.id}`)).status).toBe(404);
    expect((await call(env.p, 'GET', `/api/agent-responses/${running.id}`)).status).toBe(404);
    expect((await call(env.p, 'GET', `/api/sessions/${second.id}`)).status).toBe(404);
    expect((await call(env.p, 'GET', '/api/sessions')).json.data.map((s: any) => s.id)).not.toContain(second.id);
    const again = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('more', { root_id: second.id }) });
    expect(again.status).toBe(422);
    // The other sessions are untouched.
    expect((await call(env.p, 'GET', `/api/sessions/${first.id}`)).json.turns).toBe(2);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await call(env.p, 'GET', '/api/openapi.json')).json;
    expect(Object.keys(doc.paths['/api/sessions'] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/sessions/{id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch']);
    expect(doc.components.schemas.Session).toBeTypeOf('object');
  });
});
