import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { Agent } from '../../src-main/platform/contract/agents.js';

/**
 * Reads never throw on a stored value: an agent row whose JSON columns are damaged (by a bug, an
 * old version or a hand edit) is read with the bad field defaulted, so the lists that show it
 * still answer and the person can open and delete it.
 */
describe('stored agents with damaged columns', () => {
  const p = makePlatform({ env: {} });
  let damaged: number;
  let nulls: number;

  beforeAll(async () => {
    const a = await call(p, 'POST', '/api/agents', { body: { title: 'Damaged agent' } });
    const b = await call(p, 'POST', '/api/agents', { body: { title: 'Null questions agent', type: 'text' } });
    expect([a.status, b.status]).toEqual([201, 201]);
    damaged = a.json.id;
    nulls = b.json.id;
    p.db.prepare("UPDATE agents SET questions = '{not json', tool_servers = '{not json', updated_at = updated_at + 1 WHERE id = ?").run(damaged);
    const questions = JSON.stringify([null, 7, { type: 'string', name: 'topic', description: 'What about', required: true }, { type: 'string', name: 'topic', description: 'twice', required: false }]);
    p.db.prepare("UPDATE agents SET questions = ?, tool_servers = '[{\"server_id\":\"x\"}, null]', updated_at = updated_at + 1 WHERE id = ?").run(questions, nulls);
  });
  afterAll(() => closePlatform(p));

  it('a stored agent with damaged JSON does not break the list', async () => {
    const list = await call(p, 'GET', '/api/agents?per_page=100');
    expect(list.status, list.text).toBe(200);
    for (const item of list.json.data) expect(Agent.safeParse(item).error, JSON.stringify(item).slice(0, 200)).toBeUndefined();
    const bad = list.json.data.find((x: { id: number }) => x.id === damaged);
    expect(bad).toMatchObject({ title: 'Damaged agent', questions: [], tool_servers: [] });
    const models = await call(p, 'GET', '/v1/models');
    expect(models.status, models.text).toBe(200);
  });

  it('the damaged agent opens, keeps its valid questions, and can be deleted', async () => {
    const one = await call(p, 'GET', `/api/agents/${damaged}`);
    expect(one.status, one.text).toBe(200);
    expect(one.json.questions).toEqual([]);
    const cleaned = await call(p, 'GET', `/api/agents/${nulls}`);
    expect(cleaned.status, cleaned.text).toBe(200);
    expect(cleaned.json.questions).toEqual([{ type: 'string', name: 'topic', description: 'What about', required: true }]);
    expect(cleaned.json.tool_servers).toEqual([]);
    // The question that survived is enforced (422 naming it), not a 500 on the values that did not.
    const run = await call(p, 'POST', `/api/agents/${nulls}/execute`, { body: {} });
    expect(run.status, run.text).toBe(422);
    expect(run.json.errors.topic).toBeDefined();
    const del = await call(p, 'DELETE', `/api/agents/${damaged}`);
    expect(del.status, del.text).toBe(200);
    expect((await call(p, 'GET', `/api/agents/${damaged}`)).status).toBe(404);
  });
});
