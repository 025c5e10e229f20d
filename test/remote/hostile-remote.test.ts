import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { Agent } from '../../src-main/platform/contract/agents.js';

const REMOTE_KEY = 'hostile-remote-key-5d2e';
const topic = { type: 'string', name: 'topic', description: 'What about', required: true };

/**
 * A remote platform is outside: its agent rows and stream events are parsed with the contract's
 * schemas before anything is cached or run. The fake below is a hostile (or just broken) remote
 * on loopback whose answers each test sets.
 */
describe('a hostile remote platform', () => {
  const local = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  let remote: RecordingServer;
  let page: unknown;
  let events: unknown[] = [];

  const agents = [
    { id: 1, title: 'Null questions', slug: 'null-questions', type: 'text', questions: [null], description: 'Hostile', long_description: null, extra: { nested: true } },
    { id: 2, title: 'Fine', slug: 'fine', type: 'text', questions: [topic], description: null, long_description: null },
    { id: 3, title: 42, slug: 'bad-title', type: 'chat', questions: [] },
    { id: 4, title: 'Odd fields', slug: 'odd', type: 'text', questions: 'nope', description: { x: 1 }, instructions: 5, long_description: 'y'.repeat(50_000) },
    { id: 5, title: 'Duplicates', slug: 'dupes', type: 'text', questions: [topic, { ...topic, description: 'again' }, { type: 'select', name: 'tone', description: '', required: true }] },
  ];

  beforeAll(async () => {
    page = { data: agents, current_page: 1, last_page: 1, total: agents.length };
    remote = await startRecordingServer(({ url, res, json }) => {
      if (url.pathname === '/api/agents') return json(200, page);
      if (/^\/api\/agents\/\d+\/execute$/.test(url.pathname)) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const e of events) res.write(`data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`);
        res.end();
        return;
      }
      json(404, { message: 'Not found.' });
    });
    const put = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: remote.origin, api_key: REMOTE_KEY } });
    expect(put.status, put.text).toBe(200);
    expect(put.json.status).toBe('online');
  });
  afterAll(async () => {
    await closePlatform(local);
    await remote.close();
  });

  const cached = async () => {
    const list = await call(local, 'GET', '/api/agents?per_page=100');
    expect(list.status, list.text).toBe(200);
    for (const item of list.json.data) expect(Agent.safeParse(item).error, JSON.stringify(item).slice(0, 200)).toBeUndefined();
    return list.json.data.filter((a: { source: string }) => a.source === 'remote') as Agent[];
  };

  it('a remote agent with null questions is cleaned; execute answers without a 500 and the import copies clean questions', async () => {
    const mine = await cached();
    expect(mine.map((a) => a.title).sort()).toEqual(['Duplicates', 'Fine', 'Null questions', 'Odd fields']);
    const nullQ = mine.find((a) => a.title === 'Null questions')!;
    expect(nullQ.questions).toEqual([]);
    const odd = mine.find((a) => a.title === 'Odd fields')!;
    expect(odd).toMatchObject({ questions: [], description: null, instructions: '' });
    expect(odd.long_description!.length).toBe(20_000);
    // Each question as the API would accept it: the duplicate name and the select without options go.
    expect(mine.find((a) => a.title === 'Duplicates')!.questions).toEqual([topic]);

    events = [{ status: 'running', output: 'Hello' }, { status: 'completed', output: '', credits: 0 }];
    const run = await call(local, 'POST', `/api/agents/${nullQ.id}/execute`, { body: { wait_execution: true } });
    expect(run.status, run.text).toBe(200);
    expect(run.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Hello' });

    const imported = await call(local, 'POST', `/api/agents/${nullQ.id}/import`);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json).toMatchObject({ source: 'local', questions: [] });
    await cached();
  });

  it('a stream event that is not an execution object fails the run with a plain reason, never a 500', async () => {
    const fine = (await cached()).find((a) => a.title === 'Fine')!;
    for (const bad of [['null'], ['5'], [{ status: 'running', output: { text: 'x' } }, { status: 'completed' }], [{ status: 'failed', error: 'boom' }]]) {
      events = bad;
      const run = await call(local, 'POST', `/api/agents/${fine.id}/execute`, { body: { topic: 'x', wait_execution: true } });
      expect(run.status, `${JSON.stringify(bad)}: ${run.text}`).toBe(200);
      const e = run.json.responses[0];
      expect(e.status, JSON.stringify(bad)).toBe('failed');
      expect(e.error.message).toMatch(/^The remote platform/);
    }
  });

  it('an agent list of the wrong shape is a 502 with a reason, and the cache stays as it was', async () => {
    const before = (await cached()).map((a) => a.id).sort();
    for (const bad of ['x', { data: 'x', last_page: 1, total: 1 }, { data: [], last_page: 'many', total: 0 }, [agents], null]) {
      page = bad;
      const r = await call(local, 'POST', '/api/remote/sync');
      expect(r.status, `${JSON.stringify(bad)}: ${r.text}`).toBe(502);
      expect(r.json.message).toMatch(/^The remote platform answered with a list of agents this Agent Desk cannot read/);
      expect((await cached()).map((a) => a.id).sort()).toEqual(before);
    }
    page = { data: agents, current_page: 1, last_page: 1, total: agents.length };
    expect((await call(local, 'POST', '/api/remote/sync')).status).toBe(200);
  });
});
