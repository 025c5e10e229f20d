/**
 * ext `GET /api/workspaces/usage` (CONTRACT.md "Usage (ext)"): rows per UTC day, agent and model
 * from executions run against the fake provider. Expected figures are written from what the fake
 * was sent (its usage is ceil(chars of the messages / 4) in, one per streamed token out) and the
 * credits each execution shows; the executions are then moved to chosen days (their start time)
 * so that range boundaries are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFake, chatBody, CHAT, call } from '../execution/helpers.js';
import { expect422, expectMessage } from './spec-shapes.js';
import { UsageService } from '../../src-main/platform/modules/usage/service.js';
import { limit } from '../fixtures/until.js';

const TOKENS = ['Short', ' answer', ' here.'];
const micros = (iso: string) => Date.parse(iso) * 1000;
const round = (n: number) => Math.round(n * 1e6) / 1e6;

interface Ran {
  id: number;
  tokens_in: number;
  tokens_out: number;
  credits: number;
}

describe('GET /api/workspaces/usage', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let writer = 0;
  let temp = 0;
  const ran: Record<string, Ran> = {};

  const chatRequests = () => env.fake.requests.filter((r) => r.path === '/v1/chat/completions');
  /** Runs one execution and reads its figures: tokens from what the fake received, credits as the API shows them. */
  async function run(name: string, agentId: number, body: Record<string, unknown>, at: string) {
    const before = chatRequests().length;
    const r = await call(env.p, 'POST', `/api/agents/${agentId}/execute`, { body: { ...body, wait_execution: true } });
    expect(r.status, r.text).toBe(200);
    const e = r.json.responses[0];
    expect(e.status).toBe('succeeded');
    const sent = chatRequests().slice(before);
    expect(sent).toHaveLength(1);
    const tokensIn = Math.ceil(JSON.stringify(sent[0].body.messages).length / 4);
    const shown = (await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json;
    // The credits formula by hand, as a check that `credits` is the execution's own.
    expect(shown.credits).toBeCloseTo(0.01 + (tokensIn / 1000) * 0.002 + (TOKENS.length / 1000) * 0.006, 6);
    env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(micros(at), e.id);
    ran[name] = { id: e.id, tokens_in: tokensIn, tokens_out: TOKENS.length, credits: shown.credits };
  }
  const sum = (...names: string[]) => {
    const list = names.map((n) => ran[n]);
    return {
      executions: list.length,
      tokens_in: list.reduce((s, r) => s + r.tokens_in, 0),
      tokens_out: list.reduce((s, r) => s + r.tokens_out, 0),
      credits: round(list.reduce((s, r) => s + r.credits, 0)),
    };
  };
  const usage = async (query: string, headers: Record<string, string> = {}) => {
    const r = await call(env.p, 'GET', `/api/workspaces/usage${query}`, { headers });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['data', 'has_more', 'totals']);
    return r.json;
  };

  beforeAll(async () => {
    env = await withFake({ tokens: TOKENS });
    const chat = (await call(env.p, 'GET', `/api/agents/${CHAT}`)).json;
    const models = { type: 'select', name: 'model', description: 'Model', required: true, options: ['gpt-4o-mini', 'gpt-5'] };
    writer = (await call(env.p, 'POST', '/api/agents', { body: { title: 'Writer', type: 'text', questions: [{ type: 'string', name: 'text', description: 'Text', required: true }, models] } })).json.id;
    temp = (await call(env.p, 'POST', '/api/agents', { body: { title: 'Temporary', type: 'chat', questions: chat.questions } })).json.id;
    expect(writer).toBeGreaterThan(CHAT);
    expect(temp).toBeGreaterThan(writer);

    await run('firstInstant', CHAT, chatBody('Day one, first instant'), '2026-03-10T00:00:00.000Z');
    await run('gpt5', CHAT, chatBody('Day one on the other model', { model: 'gpt-5' }), '2026-03-10T12:00:00.000Z');
    await run('noon', CHAT, chatBody('Day one at noon'), '2026-03-10T12:00:00.000Z');
    await run('lastInstant', writer, { text: 'Day two, last instant', model: 'gpt-4o-mini' }, '2026-03-11T23:59:59.999Z');
    await run('deleted', temp, chatBody('An agent deleted later'), '2026-03-11T08:00:00.000Z');
    await run('after', CHAT, chatBody('The day after'), '2026-03-12T00:00:00.000Z');
    await run('before', CHAT, chatBody('The day before'), '2026-03-09T23:59:59.999Z');
    expect((await call(env.p, 'DELETE', `/api/agents/${temp}`)).status).toBe(200);
  }, limit(120_000));
  afterAll(() => env?.close());

  const row = (date: string, agent_id: number, agent_title: string | null, model: string, ...names: string[]) => {
    const { executions, tokens_in, tokens_out, credits } = sum(...names);
    return { date, agent_id, agent_title, model, executions, tokens_in, tokens_out, credits };
  };

  it('answers one row per day, agent and model, newest first, with totals, between start_date and end_date (both included)', async () => {
    const r = await usage('?start_date=2026-03-10&end_date=2026-03-11&per_page=100');
    expect(r.data).toEqual([
      row('2026-03-11', writer, 'Writer', 'gpt-4o-mini', 'lastInstant'),
      // The agent is gone; its executions still count.
      row('2026-03-11', temp, null, 'gpt-4o-mini', 'deleted'),
      row('2026-03-10', CHAT, 'Chat', 'gpt-4o-mini', 'firstInstant', 'noon'),
      row('2026-03-10', CHAT, 'Chat', 'gpt-5', 'gpt5'),
    ]);
    expect(r.totals).toEqual(sum('lastInstant', 'deleted', 'firstInstant', 'noon', 'gpt5'));
    expect(r.has_more).toBe(false);
    // One day each side: the instants just outside.
    expect((await usage('?start_date=2026-03-12&end_date=2026-03-12')).data).toEqual([row('2026-03-12', CHAT, 'Chat', 'gpt-4o-mini', 'after')]);
    expect((await usage('?start_date=2026-03-09&end_date=2026-03-09')).totals).toEqual(sum('before'));
    expect((await usage('?start_date=2026-03-13&end_date=2026-03-20')).totals).toEqual({ executions: 0, tokens_in: 0, tokens_out: 0, credits: 0 });
  });

  it('pages with has_more; the pages together are the whole list', async () => {
    const all = (await usage('?start_date=2026-03-09&end_date=2026-03-12&per_page=100')).data;
    expect(all).toHaveLength(6);
    const seen: unknown[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await usage(`?start_date=2026-03-09&end_date=2026-03-12&per_page=2&page=${page}`);
      expect(r.data).toHaveLength(2);
      expect(r.has_more).toBe(page < 3);
      expect(r.totals).toEqual(sum('after', 'lastInstant', 'deleted', 'firstInstant', 'noon', 'gpt5', 'before'));
      seen.push(...r.data);
    }
    expect(seen).toEqual(all);
    const past = await usage('?start_date=2026-03-09&end_date=2026-03-12&per_page=2&page=4');
    expect(past.data).toEqual([]);
    expect(past.has_more).toBe(false);
    // The default page size is 15.
    expect((await usage('?start_date=2026-03-09&end_date=2026-03-12')).data).toEqual(all);
  });

  it('filters by agent type and by user', async () => {
    const q = '?start_date=2026-03-10&end_date=2026-03-11';
    expect((await usage(`${q}&type=text`)).data).toEqual([row('2026-03-11', writer, 'Writer', 'gpt-4o-mini', 'lastInstant')]);
    expect((await usage(`${q}&type=chat`)).totals).toEqual(sum('firstInstant', 'noon', 'gpt5'));
    expect((await usage(`${q}&type=image`)).data).toEqual([]);
    expect((await usage(`${q}&type=all`)).totals).toEqual(sum('lastInstant', 'deleted', 'firstInstant', 'noon', 'gpt5'));
    expect((await usage(`${q}&user_id=1`)).totals).toEqual(sum('lastInstant', 'deleted', 'firstInstant', 'noon', 'gpt5'));
    expect((await usage(`${q}&user_id=2`)).totals.executions).toBe(0);
  });

  it('reads x-workspace-id as elsewhere, and answers without /api for bearer clients', async () => {
    const q = '?start_date=2026-03-10&end_date=2026-03-11';
    const expected = await usage(q);
    expect(await usage(q, { 'x-workspace-id': '1' })).toEqual(expected);
    // An id from the hosted platform that names no workspace here: the user's own.
    expect(await usage(q, { 'x-workspace-id': '987654' })).toEqual(expected);
    env.p.db.prepare("INSERT INTO workspaces(id, name, created_at) VALUES (77, 'Someone else', 0)").run();
    expectMessage(await call(env.p, 'GET', `/api/workspaces/usage${q}`, { headers: { 'x-workspace-id': '77' } }), 403);
    expect422(await call(env.p, 'GET', `/api/workspaces/usage${q}`, { headers: { 'x-workspace-id': 'abc' } }), 'x-workspace-id');
    const bare = await call(env.p, 'GET', `/workspaces/usage${q}`);
    expect(bare.status).toBe(200);
    expect(bare.json).toEqual(expected);
    expect((await call(env.p, 'GET', `/workspaces/usage${q}`, { key: null, headers: { accept: 'application/json' } })).status).toBe(401);
  });

  it('takes range 7d by default, and 30d, relative to today', async () => {
    const DAY = 86_400_000_000;
    const now = Date.now() * 1000;
    // Kept far from the edges of the periods, so the day turning during the test changes nothing.
    env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(now - 3 * DAY, ran.noon.id);
    env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(now - 12 * DAY, ran.gpt5.id);
    env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(now - 45 * DAY, ran.before.id);
    try {
      expect((await usage('')).totals).toEqual(sum('noon'));
      expect((await usage('?range=7d')).totals).toEqual(sum('noon'));
      expect((await usage('?range=30d')).totals).toEqual(sum('noon', 'gpt5'));
    } finally {
      env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(micros('2026-03-10T12:00:00.000Z'), ran.noon.id);
      env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(micros('2026-03-10T12:00:00.000Z'), ran.gpt5.id);
      env.p.db.prepare('UPDATE executions SET created_at = ? WHERE id = ?').run(micros('2026-03-09T23:59:59.999Z'), ran.before.id);
    }
  });

  it('counts range days in UTC up to today, today included (injected clock)', () => {
    const at = (iso: string) => new UsageService(env.p.db, () => Date.parse(iso));
    const caller = { userId: 1, workspaceId: 1, selectedWorkspaceId: 1 };
    const q = { page: 1, per_page: 100, type: 'all' as const };
    expect(at('2026-03-11T15:00:00Z').report(caller, { ...q, range: '1d' }).totals).toEqual(sum('lastInstant', 'deleted'));
    expect(at('2026-03-12T00:00:00Z').report(caller, { ...q, range: '1d' }).totals).toEqual(sum('after'));
    expect(at('2026-03-11T23:59:59.999Z').report(caller, { ...q, range: '1d' }).totals).toEqual(sum('lastInstant', 'deleted'));
    // 7d on the 16th: the 10th to the 16th.
    expect(at('2026-03-16T10:00:00Z').report(caller, { ...q, range: '7d' }).totals).toEqual(sum('firstInstant', 'noon', 'gpt5', 'lastInstant', 'deleted', 'after'));
    expect(at('2026-03-15T10:00:00Z').report(caller, { ...q, range: '7d' }).totals).toEqual(sum('before', 'firstInstant', 'noon', 'gpt5', 'lastInstant', 'deleted', 'after'));
    expect(at('2026-04-08T10:00:00Z').report(caller, { ...q, range: '30d' }).totals).toEqual(sum('firstInstant', 'noon', 'gpt5', 'lastInstant', 'deleted', 'after'));
    expect(at('2026-04-08T10:00:00Z').report(caller, { ...q }).totals.executions).toBe(0);
  });

  it('refuses a bad period or query with the contract 422 body', async () => {
    const bad = (query: string) => call(env.p, 'GET', `/api/workspaces/usage${query}`);
    expect422(await bad('?start_date=2026-03-12&end_date=2026-03-11'), 'end_date', 'The end date field must be a date after or equal to start date.');
    expect422(await bad('?start_date=2026-01-01&end_date=2026-04-01'), 'end_date', 'The period from start date to end date may span at most 90 days.');
    expect((await bad('?start_date=2026-01-01&end_date=2026-03-31')).status).toBe(200); // 90 days exactly
    expect422(await bad('?start_date=2026-03-10'), 'end_date', 'The end date field is required when start date is present.');
    expect422(await bad('?end_date=2026-03-10'), 'start_date', 'The start date field is required when end date is present.');
    expect422(await bad('?start_date=2026-02-30&end_date=2026-03-01'), 'start_date', 'The start date field must be a real calendar date.');
    expect422(await bad('?start_date=10-03-2026&end_date=2026-03-11'), 'start_date', 'The start date field must be a date like 2026-01-31 (YYYY-MM-DD).');
    expect422(await bad('?range=90d'), 'range', 'The selected range is invalid.');
    expect422(await bad('?type=robot'), 'type', 'The selected type is invalid.');
    expect422(await bad('?user_id=abc'), 'user_id');
    expect422(await bad('?per_page=0'), 'per_page');
    expect422(await bad('?per_page=101'), 'per_page');
    expect422(await bad('?page=0'), 'page');
  });
});
