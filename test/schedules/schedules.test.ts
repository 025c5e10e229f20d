import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { call, chatBody, CHAT, withFake } from '../execution/helpers.js';
import { makePlatform } from '../api/helpers.js';
import { nextFire } from '../../src-main/platform/modules/schedules/service.js';
import type { Clock } from '../../src-main/platform/kernel/time.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { until } from '../fixtures/until.js';

/** A clock the test moves by hand: no run depends on waiting. */
function manualClock(startIso: string): Clock & { advance(ms: number): void } {
  let t = Date.parse(startIso);
  return { now: () => t, advance: (ms) => (t += ms) };
}

const MIN = 60_000;
const question = (content: string) => ({ answers: { temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools' }, messages: [{ role: 'user', content }] });

/** Waits (by condition, not by time) until every run of the schedule has a finished execution. */
async function settledRuns(p: Platform, id: number, count: number): Promise<any[]> {
  return until(`${count} settled runs of schedule ${id}`, async () => {
    await p.jobs.idle();
    const runs = (await call(p, 'GET', `/api/schedules/${id}/runs`)).json.data as any[];
    return runs.length >= count && runs.every((r) => r.error || ['succeeded', 'failed'].includes(r.execution?.status)) ? runs : null;
  }, 10_000, 10);
}

describe('when a schedule fires', () => {
  it('follows the cron expression in its time zone, and an every-N-minutes grid from its creation', () => {
    const winter = Date.parse('2026-11-23T12:00:00Z');
    // 09:00 in Paris is 08:00 UTC in winter, 07:00 UTC in summer.
    expect(new Date(nextFire({ cron: '0 9 * * *', every_minutes: null, timezone: 'Europe/Paris', created_at: 0 }, winter)!).toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(new Date(nextFire({ cron: '0 9 * * *', every_minutes: null, timezone: 'Europe/Paris', created_at: 0 }, Date.parse('2026-07-01T12:00:00Z'))!).toISOString()).toBe('2026-07-02T07:00:00.000Z');
    const created = Date.parse('2026-11-23T10:03:00Z');
    const grid = (after: string) => new Date(nextFire({ cron: null, every_minutes: 15, timezone: 'UTC', created_at: created * 1000 }, Date.parse(after))!).toISOString();
    expect(grid('2026-11-23T10:03:00Z')).toBe('2026-11-23T10:18:00.000Z');
    expect(grid('2026-11-23T10:17:59Z')).toBe('2026-11-23T10:18:00.000Z');
    expect(grid('2026-11-23T10:18:00Z')).toBe('2026-11-23T10:33:00.000Z');
  });
});

describe('schedules over the API (ext)', () => {
  let env: Awaited<ReturnType<typeof withFake>> | undefined;
  afterEach(async () => {
    await env?.close();
    env = undefined;
  });

  it('creates, lists, pauses and deletes; bad input is 422 with the field, a stranger schedule 404', async () => {
    const clock = manualClock('2026-11-23T12:00:00Z');
    env = await withFake({ reply: 'ok' }, {}, { clock });
    const { p } = env;
    const created = await call(p, 'POST', '/api/schedules', { body: { agent_id: CHAT, cron: '30 9 * * 1-5', timezone: 'Europe/Paris', ...question('Daily news?') } });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ agent_id: CHAT, cron: '30 9 * * 1-5', every_minutes: null, timezone: 'Europe/Paris', enabled: true, last_run_at: null });
    expect(created.json.next_run_at).toBe('2026-11-24T08:30:00.000000Z');

    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await call(p, 'POST', '/api/schedules', { body: { agent_id: CHAT, ...body } });
      expect(r.status, JSON.stringify(r.json)).toBe(422);
      expect(Object.keys(r.json.errors)).toContain(field);
    };
    await bad({ cron: 'every day' }, 'cron');
    await bad({ cron: '0 9 * * *', every_minutes: 5 }, 'cron');
    await bad({}, 'cron');
    await bad({ every_minutes: 0 }, 'every_minutes');
    await bad({ every_minutes: 5, timezone: 'Mars/Olympus' }, 'timezone');
    const noAgent = await call(p, 'POST', '/api/schedules', { body: { agent_id: 9999, every_minutes: 5 } });
    expect(noAgent.status).toBe(422);
    expect(noAgent.json.errors.agent_id).toEqual(['The selected agent id is invalid.']);

    const list = await call(p, 'GET', '/api/schedules');
    expect(list.json.total).toBe(1);
    const paused = await call(p, 'PATCH', `/api/schedules/${created.json.id}`, { body: { enabled: false } });
    expect(paused.json).toMatchObject({ enabled: false, next_run_at: null });
    const every = await call(p, 'PATCH', `/api/schedules/${created.json.id}`, { body: { every_minutes: 30, enabled: true } });
    expect(every.json).toMatchObject({ cron: null, every_minutes: 30, enabled: true });
    expect((await call(p, 'GET', '/api/schedules/424242')).status).toBe(404);
    expect((await call(p, 'DELETE', `/api/schedules/${created.json.id}`)).json).toEqual({ id: created.json.id, deleted: true });
    expect((await call(p, 'GET', `/api/schedules/${created.json.id}`)).status).toBe(404);
  });

  it('a due run fires once: one execution that really ran, and the execution event that webhooks hear', async () => {
    const clock = manualClock('2026-11-23T12:00:00Z');
    env = await withFake({ reply: 'Scheduled answer.' }, {}, { clock });
    const { p } = env;
    const finished: number[] = [];
    p.events.on('execution.finished', (e) => finished.push(e.execution.id));
    const s = (await call(p, 'POST', '/api/schedules', { body: { agent_id: CHAT, every_minutes: 5, ...question('Status?') } })).json;

    expect(p.services.schedules.tick()).toBe(0); // not due yet
    clock.advance(5 * MIN);
    expect(p.services.schedules.tick()).toBe(1);
    expect(p.services.schedules.tick()).toBe(0); // the same due time never runs twice
    const runs = await settledRuns(p, s.id, 1);
    expect(runs).toHaveLength(1);
    expect(runs[0].execution).toMatchObject({ status: 'succeeded', output: 'Scheduled answer.' });
    expect(runs[0].due_at).toBe('2026-11-23T12:05:00.000000Z');
    expect(finished).toEqual([runs[0].execution_id]);
    const after = (await call(p, 'GET', `/api/schedules/${s.id}`)).json;
    expect(after).toMatchObject({ last_run_at: '2026-11-23T12:05:00.000000Z', next_run_at: '2026-11-23T12:10:00.000000Z' });
  });

  it('times missed while closed run once at the next start, never as a burst', async () => {
    const clock = manualClock('2026-11-23T12:00:00Z');
    env = await withFake({ reply: 'Caught up.' }, {}, { clock });
    const { p } = env;
    const s = (await call(p, 'POST', '/api/schedules', { body: { agent_id: CHAT, every_minutes: 5, ...question('Status?') } })).json;
    clock.advance(60 * MIN + 30_000); // twelve due times passed
    expect(p.services.schedules.tick()).toBe(1);
    const runs = await settledRuns(p, s.id, 1);
    expect(runs).toHaveLength(1);
    expect((await call(p, 'GET', `/api/schedules/${s.id}`)).json.next_run_at).toBe('2026-11-23T13:05:00.000000Z');
  });

  it('a run that cannot start says why instead of failing silently', async () => {
    const clock = manualClock('2026-11-23T12:00:00Z');
    env = await withFake({ reply: 'x' }, {}, { clock });
    const { p } = env;
    // A chat agent needs messages: a schedule without them records the 422's reason on its run.
    const s = (await call(p, 'POST', '/api/schedules', { body: { agent_id: CHAT, every_minutes: 1, answers: chatBody('x') } })).json;
    await call(p, 'PATCH', `/api/schedules/${s.id}`, { body: { answers: { temperature: 'hot' } } });
    clock.advance(MIN);
    p.services.schedules.tick();
    const [run] = await settledRuns(p, s.id, 1);
    expect(run.execution).toBeNull();
    expect(run.error).toMatch(/messages|temperature/);
  });
});

describe('schedules across a restart', () => {
  it('a crash between the due time and the start loses and duplicates nothing', async () => {
    const { startFakeOpenAI } = await import('../fixtures/fake-openai.js');
    const fake = await startFakeOpenAI({ reply: 'After restart.' });
    const clock = manualClock('2026-11-23T12:00:00Z');
    const env = { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' };
    const a = makePlatform({ env, clock });
    const dir = a.dir;
    try {
      const s = (await call(a, 'POST', '/api/schedules', { body: { agent_id: CHAT, every_minutes: 5, ...question('Status?') } })).json;
      clock.advance(5 * MIN);
      expect(a.services.schedules.tick()).toBe(1);
      // Dies before the queued start ran: the run and its job are on disk, no execution yet.
      a.abandon();

      const b = makePlatform({ env, clock, dataDir: dir });
      try {
        expect(b.services.schedules.tick()).toBe(0); // that due time is recorded: not again
        const runs = await settledRuns(b, s.id, 1);
        expect(runs).toHaveLength(1);
        expect(runs[0].execution).toMatchObject({ status: 'succeeded', output: 'After restart.' });
        const executions = b.db.prepare('SELECT count(*) AS n FROM executions WHERE agent_id = ?').get(CHAT) as { n: number };
        expect(executions.n).toBe(1);

        // A start that already created its execution is never repeated (the job ran again after a crash).
        const runId = runs[0].id;
        b.jobs.enqueue('schedule.run', { runId });
        await b.jobs.idle();
        expect((b.db.prepare('SELECT count(*) AS n FROM executions WHERE agent_id = ?').get(CHAT) as { n: number }).n).toBe(1);
      } finally {
        await b.close();
      }
    } finally {
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
