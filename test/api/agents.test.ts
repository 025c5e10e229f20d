import { afterAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from './helpers.js';
import { expect422, expectAgent, expectMessage, expectShapeB, ISO_MICROS } from './spec-shapes.js';
import { until } from '../fixtures/until.js';

describe('agents', () => {
  const p = makePlatform();
  afterAll(() => closePlatform(p));

  it('GET /api/agents: shape B with agent items, absolute URLs and Laravel links', async () => {
    const r = await call(p, 'GET', '/api/agents');
    expect(r.status).toBe(200);
    expectShapeB(r.json);
    const n = r.json.total;
    expect(n).toBeGreaterThanOrEqual(1);
    r.json.data.forEach(expectAgent);
    expect(r.json).toMatchObject({
      current_page: 1,
      from: 1,
      to: n,
      last_page: 1,
      per_page: 15,
      path: 'http://127.0.0.1:8787/api/agents',
      first_page_url: 'http://127.0.0.1:8787/api/agents?page=1',
      last_page_url: 'http://127.0.0.1:8787/api/agents?page=1',
      prev_page_url: null,
      next_page_url: null,
    });
    expect(r.json.links).toEqual([
      { url: null, label: 'pagination.previous', active: false },
      { url: 'http://127.0.0.1:8787/api/agents?page=1', label: '1', active: true },
      { url: null, label: 'pagination.next', active: false },
    ]);
  });

  it('seeds a chat agent whose questions are exactly those of the spec', async () => {
    const list = (await call(p, 'GET', '/api/agents?type=chat&per_page=100')).json.data;
    const chat = list.find((a: any) => a.questions.map((q: any) => q.name).join() === 'temperature,model,tools,root_id,messages');
    expect(chat, 'a chat agent with the spec questions').toBeDefined();
    const a = (await call(p, 'GET', `/api/agents/${chat.id}`)).json;
    expectAgent(a);
    expect(a.type).toBe('chat');
    const q = Object.fromEntries(a.questions.map((x: any) => [x.name, x]));
    expect(q.temperature).toMatchObject({ type: 'select', required: true, options: ['0', '0.25', '0.5', '0.75', '1'] });
    expect(q.model).toMatchObject({ type: 'select', required: true });
    expect(q.model.options).toHaveLength(25);
    expect(new Set(q.model.options).size).toBe(25);
    for (const m of q.model.options) expect(m).toMatch(/^[A-Za-z0-9][\w.:/-]*$/);
    expect(q.tools).toMatchObject({ type: 'select', required: true });
    expect(q.tools.options.slice(0, 2)).toEqual(['no-tools', 'internet']);
    expect(q.tools.options).toHaveLength(10);
    expect(new Set(q.tools.options).size).toBe(10);
    expect(q.root_id).toMatchObject({ type: 'number', required: false });
    expect(q.root_id.options).toBeUndefined();
    expect(q.messages).toMatchObject({ type: 'array', required: true });
    // Each seeded agent type exists among the templates; every agent is well formed.
    const all = (await call(p, 'GET', '/api/agents?per_page=100')).json.data;
    all.forEach(expectAgent);
  });

  it('GET /api/agents/{id}: the agent, 404 `Agent not found` for unknown or malformed ids', async () => {
    const first = (await call(p, 'GET', '/api/agents')).json.data[0];
    const r = await call(p, 'GET', `/api/agents/${first.id}`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual(first);
    for (const id of ['999999', '0', '-1', 'abc', '1.5', '99999999999999999999999', '%20']) {
      expectMessage(await call(p, 'GET', `/api/agents/${id}`), 404, 'Agent not found');
    }
  });

  it('filters by type and q (title, description, long description, case-insensitive)', async () => {
    for (const type of ['chat', 'image', 'text', 'video']) {
      const r = await call(p, 'GET', `/api/agents?type=${type}&per_page=100`);
      expect(r.status).toBe(200);
      for (const a of r.json.data) expect(a.type).toBe(type);
    }
    const made = (await call(p, 'POST', '/api/agents', { body: { title: 'Plain', description: 'd', long_description: 'Contains the Zebra-Quokka phrase', type: 'video' } })).json;
    const hit = await call(p, 'GET', '/api/agents?q=zebra-QUOKKA');
    expect(hit.json.data.map((a: any) => a.id)).toEqual([made.id]);
    expect(hit.json.total).toBe(1);
    // Other query parameters are kept in the page URLs.
    expect(new URL(hit.json.first_page_url).searchParams.get('q')).toBe('zebra-QUOKKA');
    // Case-insensitive beyond ASCII.
    const accented = (await call(p, 'POST', '/api/agents', { body: { title: 'Été à Zürich' } })).json;
    expect((await call(p, 'GET', `/api/agents?q=${encodeURIComponent('ÉTÉ À ZÜRICH')}`)).json.data.map((a: any) => a.id)).toEqual([accented.id]);
    const typed = await call(p, 'GET', '/api/agents?q=zebra-quokka&type=chat');
    expect(typed.json.total).toBe(0);
    expect422(await call(p, 'GET', '/api/agents?type=audio'), 'type', 'The selected type is invalid.');
    expect422(await call(p, 'GET', '/api/agents?page=0'), 'page', 'The page field must be at least 1.');
    expect422(await call(p, 'GET', '/api/agents?per_page=101'), 'per_page', 'The per page field must not be greater than 100.');
    expect422(await call(p, 'GET', '/api/agents?per_page=x'), 'per_page');
  });

  it('ext POST /api/agents: creates (201), from a template too; refuses bad input with 422', async () => {
    const r = await call(p, 'POST', '/api/agents', { body: { title: 'My agent', type: 'text', instructions: 'Be brief.' } });
    expect(r.status).toBe(201);
    expectAgent(r.json);
    expect(r.json).toMatchObject({ title: 'My agent', type: 'text', workspace_id: 1, created_by: 1, active: 1, visibility: 'public', instructions: 'Be brief.' });
    expect(r.json.created_at).toBe(r.json.updated_at);
    expect((await call(p, 'GET', `/api/agents/${r.json.id}`)).json).toEqual(r.json);

    const tpl = (await call(p, 'GET', '/api/resources?type=image')).json.data[0];
    const fromTpl = await call(p, 'POST', '/api/agents', { body: { template_id: tpl.id } });
    expect(fromTpl.status).toBe(201);
    expect(fromTpl.json).toMatchObject({ title: tpl.title, description: tpl.description, type: 'image' });

    expect422(await call(p, 'POST', '/api/agents', { body: {} }), 'title', 'The title field is required.');
    expect422(await call(p, 'POST', '/api/agents', { body: { title: 5 } }), 'title', 'The title field must be a string.');
    expect422(await call(p, 'POST', '/api/agents', { body: { title: 'x', type: 'audio' } }), 'type', 'The selected type is invalid.');
    expect422(await call(p, 'POST', '/api/agents', { body: { template_id: 'no-such-template' } }), 'template_id', 'The selected template id is invalid.');
    expect422(await call(p, 'POST', '/api/agents', { body: { title: 'x', questions: 'nope' } }), 'questions', 'The questions field must be an array.');
    expect422(await call(p, 'POST', '/api/agents', { body: { title: 'x', questions: [{ type: 'select', name: 'a', description: '', required: true }] } }), 'questions');
    expect422(await call(p, 'POST', '/api/agents', { body: { title: 'x', slug: r.json.slug } }), 'slug', 'The slug has already been taken.');
    expect422(await call(p, 'POST', '/api/agents', { body: [] }), 'input', 'The input field must be an object.');
  });

  it('GET /api/agents/{id} never serves a stale agent after any write to its row', async () => {
    const a = (await call(p, 'POST', '/api/agents', { body: { title: 'Fresh', questions: [{ type: 'number', name: 'n', description: '', required: false }] } })).json;
    expect((await call(p, 'GET', `/api/agents/${a.id}`)).json.title).toBe('Fresh');
    await call(p, 'PATCH', `/api/agents/${a.id}`, { body: { title: 'Fresher', questions: [] } });
    expect((await call(p, 'GET', `/api/agents/${a.id}`)).json).toMatchObject({ title: 'Fresher', questions: [] });
    // A write from elsewhere (another process on the same data dir, a sync) that bumps updated_at.
    p.db.prepare('UPDATE agents SET title = ?, updated_at = updated_at + 1 WHERE id = ?').run('Elsewhere', a.id);
    expect((await call(p, 'GET', `/api/agents/${a.id}`)).json.title).toBe('Elsewhere');
    // Moving it to a workspace the caller is not in hides it at once.
    p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (77, 'Other', 0)").run();
    p.db.prepare('UPDATE agents SET workspace_id = 77, updated_at = updated_at + 1 WHERE id = ?').run(a.id);
    expectMessage(await call(p, 'GET', `/api/agents/${a.id}`), 404, 'Agent not found');
    p.db.prepare('DELETE FROM agents WHERE id = ?').run(a.id);
    expectMessage(await call(p, 'GET', `/api/agents/${a.id}`), 404, 'Agent not found');
    // A cached agent is shared, so it cannot be changed in place by a caller.
    const shared = p.services.agents.get(1, 1);
    expect(Object.isFrozen(shared) && Object.isFrozen(shared.questions)).toBe(true);
  });

  it('ext PATCH and DELETE /api/agents/{id}', async () => {
    const a = (await call(p, 'POST', '/api/agents', { body: { title: 'Before' } })).json;
    // A condition, not a sleep: the change comes after the creation's millisecond.
    await until('the clock past the creation', () => Date.now() > Date.parse(a.updated_at), 1000, 1);
    const u = await call(p, 'PATCH', `/api/agents/${a.id}`, { body: { title: 'After', description: null } });
    expect(u.status).toBe(200);
    expectAgent(u.json);
    expect(u.json).toMatchObject({ id: a.id, title: 'After', description: null, created_at: a.created_at });
    expect(u.json.updated_at).toMatch(ISO_MICROS);
    expect(u.json.updated_at > a.updated_at).toBe(true);
    expect422(await call(p, 'PATCH', `/api/agents/${a.id}`, { body: { active: 2 } }), 'active');
    expect422(await call(p, 'PATCH', `/api/agents/${a.id}`, { body: { title: '' } }), 'title');
    expectMessage(await call(p, 'PATCH', '/api/agents/999999', { body: { title: 'x' } }), 404, 'Agent not found');

    const d = await call(p, 'DELETE', `/api/agents/${a.id}`);
    expect(d.status).toBe(200);
    expect(d.json).toEqual({ id: a.id, deleted: true });
    expectMessage(await call(p, 'GET', `/api/agents/${a.id}`), 404, 'Agent not found');
    expectMessage(await call(p, 'DELETE', `/api/agents/${a.id}`), 404, 'Agent not found');
  });
});
