/**
 * Property-based fuzzing of what a remote platform answers: agent rows with fields of the wrong
 * type, unknown fields and hostile questions; agent pages of the wrong shape; execution streams
 * of hostile events. The remote is a fake on loopback whose answer each run sets. Every sync
 * answers 200 or 502, never a 500; what is cached lists in the contract's shape and holds only
 * questions the API would accept; every execution ends succeeded or failed with a reason.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { startRecordingServer, type RecordingServer } from '../fixtures/fake-http.js';
import { hostileValue, NASTY_NUMBERS, NASTY_STRINGS } from './arbitraries.js';
import { cleanup, FUZZ_SEED, fuzzPlatform } from './harness.js';
import { Agent, AgentCreate, AGENT_TYPES } from '../../src-main/platform/contract/agents.js';
import { limit } from '../fixtures/until.js';

const env = Number(process.env.FUZZ_RUNS);
const RUNS = Number.isFinite(env) && env > 0 ? Math.floor(env) : 100;

const local = fuzzPlatform();
let remote: RecordingServer;
/** What the fake answers: GET /api/agents (status and raw body), and the execute stream's raw `data:` payloads. */
let pageAnswer: { status: number; body: string } = { status: 200, body: '' };
let events: string[] = [];
const stats: Record<string, { tried: number; [outcome: string]: number }> = {};
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

const topic = { type: 'string', name: 'topic', description: 'What about', required: false };
const honestAgent = (id: number) => ({ id, title: `Remote agent ${id}`, slug: `remote-agent-${id}`, type: 'text', description: 'An honest one.', long_description: null, visibility: 'public', active: 1, questions: [topic], instructions: '' });
const page = (data: unknown[]) => JSON.stringify({ data, current_page: 1, last_page: 1, total: data.length });

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  remote = await startRecordingServer(({ url, res }) => {
    if (url.pathname === '/api/agents') {
      res.writeHead(pageAnswer.status, { 'content-type': 'application/json' });
      res.end(pageAnswer.body);
      return;
    }
    if (/^\/api\/agents\/\d+\/execute$/.test(url.pathname)) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const e of events) res.write(`data: ${e}\n\n`);
      res.end();
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"message":"Not found."}');
  });
  pageAnswer = { status: 200, body: page([honestAgent(1)]) };
  const put = await call(local, 'PUT', '/api/settings/remote', { body: { base_url: remote.origin, api_key: 'remote-fuzz-key' } });
  expect(put.json.status, put.text).toBe('online');
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await cleanup(local);
  await remote.close();
  const total = Object.values(stats).reduce((n, s) => n + s.tried, 0);
  console.info(`[remote-fuzz] seed ${FUZZ_SEED}, ${total} remote answers: ${Object.entries(stats).map(([k, s]) => `${k} ${s.tried} (${Object.entries(s).filter(([o]) => o !== 'tried').map(([o, n]) => `${n} ${o}`).join(', ')})`).join('; ')}`);
});

const count = (category: string, outcome: string) => {
  const s = (stats[category] ??= { tried: 0 });
  s.tried++;
  s[outcome] = (s[outcome] ?? 0) + 1;
};

/** The cached remote agents as the API lists them, each checked against the contract. */
async function cachedRemote(where: string): Promise<Agent[]> {
  const list = await call(local, 'GET', '/api/agents?per_page=100');
  expect(list.status, `${where}: ${list.text.slice(0, 300)}`).toBe(200);
  for (const item of list.json.data) expect(Agent.safeParse(item).error, `${where}: ${JSON.stringify(item).slice(0, 200)}`).toBeUndefined();
  const mine = (list.json.data as Agent[]).filter((a) => a.source === 'remote');
  for (const a of mine) {
    // Only questions the API itself would accept on input, and no MCP servers.
    expect(AgentCreate.shape.questions.safeParse(a.questions).error, `${where}: ${JSON.stringify(a.questions).slice(0, 200)}`).toBeUndefined();
    expect(a.tool_servers ?? [], where).toEqual([]);
  }
  return mine;
}

const wrong: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...NASTY_STRINGS, ...NASTY_NUMBERS, null, true, false, [], {}, [null], 'chat', 'TEXT', ' ', 0, -1, 2 ** 53),
  hostileValue.filter((v) => typeof v !== 'string' || v.length < 100_000),
);
const hostileQuestion: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(topic),
  wrong,
  fc.record(
    { type: fc.oneof(fc.constantFrom('select', 'string', 'number', 'boolean', 'array'), wrong), name: fc.oneof(fc.constantFrom('topic', 'tone', 'x'), wrong), description: fc.oneof(fc.constant(''), wrong), required: fc.oneof(fc.boolean(), wrong), options: fc.oneof(fc.constant(['a', 'b']), wrong) },
    { requiredKeys: [] },
  ),
);
/** A remote agent: an honest one with some fields changed, removed, or added. */
const hostileAgent: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.integer({ min: 1, max: 40 }),
    fc.array(fc.tuple(fc.constantFrom('id', 'title', 'slug', 'type', 'description', 'long_description', 'visibility', 'active', 'questions', 'instructions', '__proto__', 'tool_servers', 'source', 'workspace_id', 'evil'), fc.oneof(wrong, fc.array(hostileQuestion, { maxLength: 5 }), fc.constant(undefined))), { maxLength: 3 }),
  )
  .map(([id, changes]) => {
    const a: Record<string, unknown> = honestAgent(id);
    for (const [k, v] of changes) {
      if (v === undefined) delete a[k];
      else Object.defineProperty(a, k, { value: v, enumerable: true, configurable: true, writable: true });
    }
    return a;
  });

/** Whether an agent is one the cache may hold: what the API needs to list it (a positive id, a title, a known type). */
const cacheable = (a: unknown): a is { id: number } => {
  const r = a as Record<string, unknown> | null;
  return !!r && typeof r === 'object' && Number.isSafeInteger(r.id) && (r.id as number) >= 1 && typeof r.title === 'string' && r.title.trim() !== '' && (AGENT_TYPES as readonly unknown[]).includes(r.type);
};

async function sync(where: string) {
  const r = await call(local, 'POST', '/api/remote/sync');
  expect(r.status === 200 || r.status === 502, `${where}: ${r.status} ${r.text.slice(0, 300)}`).toBe(true);
  expect(typeof r.json?.message === 'string' || r.status === 200, where).toBe(true);
  return r;
}

describe('fuzz: a remote platform’s answers', () => {
  it(
    'agent rows with fields of the wrong type, unknown fields and hostile questions: cached clean or left out',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(hostileAgent, { minLength: 1, maxLength: 6 }), async (agents) => {
          pageAnswer = { status: 200, body: page(agents) };
          const where = JSON.stringify(agents).slice(0, 300);
          const r = await sync(where);
          expect(r.status, where).toBe(200);
          const mine = await cachedRemote(where);
          const expected = new Set(agents.filter(cacheable).map((a) => a.id));
          expect(mine.length, where).toBe(expected.size);
          const s = (stats['agent rows'] ??= { tried: 0, cached: 0, 'left out': 0 });
          s.tried += agents.length;
          s.cached += agents.filter(cacheable).length;
          s['left out'] += agents.filter((x) => !cacheable(x)).length;
          if (mine.length) {
            const imported = await call(local, 'POST', `/api/agents/${mine[0].id}/import`);
            expect(imported.status, `${where}: ${imported.text.slice(0, 300)}`).toBe(201);
            expect(Agent.safeParse(imported.json).error, where).toBeUndefined();
            expect((await call(local, 'DELETE', `/api/agents/${imported.json.id}`)).status).toBe(200);
          }
          expect((await call(local, 'GET', '/v1/models')).status, where).toBe(200);
        }),
        { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    limit(60_000 + RUNS * 1000),
  );

  it(
    'agent pages of the wrong shape: a 502 with a reason, the cache kept as it was',
    async () => {
      pageAnswer = { status: 200, body: page([honestAgent(1), honestAgent(2)]) };
      expect((await sync('honest')).status).toBe(200);
      const kept = (await cachedRemote('honest')).map((a) => a.id).sort();
      const body = fc.oneof(
        hostileValue.map((v) => JSON.stringify(v) ?? 'null'),
        fc.record({ data: wrong, last_page: fc.oneof(fc.constant(1), wrong), total: fc.oneof(fc.constant(1), wrong) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
        fc.constantFrom('', 'not json', '<html>502</html>', '{"data": [', '[]'),
      );
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom(200, 200, 200, 401, 404, 500), async (text, status) => {
          pageAnswer = { status, body: text };
          const where = `${status} ${text.slice(0, 200)}`;
          const r = await sync(where);
          count('page shapes', String(r.status));
          // An answer that happens to be a valid page is synced; any other changes nothing.
          if (r.status === 502) expect((await cachedRemote(where)).map((a) => a.id).sort(), where).toEqual(kept);
          else {
            pageAnswer = { status: 200, body: page([honestAgent(1), honestAgent(2)]) };
            expect((await sync('restore')).status).toBe(200);
          }
        }),
        { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    limit(60_000 + RUNS * 500),
  );

  it(
    'execution streams of hostile events: each run ends succeeded or failed with a reason, never a 500',
    async () => {
      pageAnswer = { status: 200, body: page([honestAgent(1)]) };
      expect((await sync('honest')).status).toBe(200);
      const agent = (await cachedRemote('honest'))[0];
      const event = fc.oneof(
        { weight: 3, arbitrary: fc.string({ maxLength: 20 }).map((output) => JSON.stringify({ status: 'running', output })) },
        { weight: 2, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
        { weight: 1, arbitrary: fc.record({ status: fc.oneof(fc.constantFrom('running', 'completed', 'succeeded', 'failed', 'canceled'), wrong), output: wrong, error: wrong }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.constantFrom('not json', '{', '[DONE]', '') },
      );
      const terminal = fc.constantFrom(JSON.stringify({ status: 'completed', output: '', credits: 0 }), JSON.stringify({ status: 'failed', error: { message: 'The remote model failed.' } }), '');
      await fc.assert(
        fc.asyncProperty(fc.array(event, { maxLength: 6 }), terminal, fc.boolean(), async (list, end, stream) => {
          events = end ? [...list, end] : list;
          const where = JSON.stringify(events).slice(0, 300);
          if (stream) {
            const res = await local.app.request('http://127.0.0.1:8787/api/agents/' + agent.id + '/execute', {
              method: 'POST',
              headers: { host: '127.0.0.1:8787', authorization: 'Bearer test-key-0123456789', 'content-type': 'application/json' },
              body: JSON.stringify({ stream: true }),
            });
            expect(res.status, where).toBe(200);
            const frames = (await res.text()).split('\n\n').filter((f) => f.startsWith('data: '));
            const last = JSON.parse(frames.at(-1)!.slice(6));
            expect(['completed', 'failed'], where).toContain(last.status);
            if (last.status === 'failed') expect(last.error.message, where).toMatch(/\S/);
            count('stream events', `stream ${last.status}`);
            return;
          }
          const r = await call(local, 'POST', `/api/agents/${agent.id}/execute`, { body: { wait_execution: true } });
          expect(r.status, `${where}: ${r.text.slice(0, 300)}`).toBe(200);
          const e = r.json.responses[0];
          expect(['succeeded', 'failed'], where).toContain(e.status);
          if (e.status === 'failed') expect(e.error.message, where).toMatch(/^The remote platform/);
          count('stream events', e.status);
        }),
        { seed: FUZZ_SEED, numRuns: RUNS, endOnFailure: true },
      );
    },
    limit(60_000 + RUNS * 1000),
  );

  it('left no unhandled rejection behind, and the lists still answer', async () => {
    expect(unhandled).toEqual([]);
    await cachedRemote('end');
  });
});
