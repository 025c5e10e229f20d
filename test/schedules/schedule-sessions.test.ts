/**
 * ext on GET /api/sessions: a session a schedule's run started names that schedule (`schedule`),
 * and `scheduled=false` leaves such sessions out (true keeps only them), so the chat can mark and
 * hide them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, CHAT, chatBody, withFake } from '../execution/helpers.js';
import { until } from '../fixtures/until.js';
import { SessionDetail, SessionPage } from '../../src-main/platform/contract/sessions.js';
import type { Clock } from '../../src-main/platform/kernel/time.js';

const MIN = 60_000;

describe('sessions started by a schedule (ext)', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let t = Date.parse('2026-11-23T12:00:00Z');
  const clock: Clock = { now: () => t };
  let scheduleId = 0;
  let scheduledRoot = 0;
  let plainRoot = 0;

  beforeAll(async () => {
    env = await withFake({ reply: 'ok' }, {}, { clock });
    const { p } = env;
    plainRoot = (await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Status?'), wait_execution: true } })).json.responses[0].id;
    const s = await call(p, 'POST', '/api/schedules', {
      body: { agent_id: CHAT, name: 'Morning status', every_minutes: 5, answers: { temperature: '0.5', model: 'gpt-4o-mini', tools: 'no-tools' }, messages: [{ role: 'user', content: 'Status?' }] },
    });
    expect(s.status).toBe(201);
    scheduleId = s.json.id;
    t += 5 * MIN;
    expect(p.services.schedules.tick()).toBe(1);
    const run = await until('the scheduled run to finish', async () => {
      await p.jobs.idle();
      const r = (await call(p, 'GET', `/api/schedules/${scheduleId}/runs`)).json.data[0];
      return r?.execution?.status === 'succeeded' ? r : null;
    });
    scheduledRoot = run.execution.root_id;
  });
  afterAll(async () => env?.close());

  it('names the schedule on the scheduled session only; the same title is no longer all there is to tell them apart', async () => {
    const page = SessionPage.parse((await call(env.p, 'GET', '/api/sessions')).json);
    expect(page.total).toBe(2);
    const scheduled = page.data.find((s) => s.id === scheduledRoot)!;
    const plain = page.data.find((s) => s.id === plainRoot)!;
    expect(scheduled.title).toBe(plain.title);
    expect(scheduled.schedule).toEqual({ id: scheduleId, name: 'Morning status' });
    expect(plain.schedule).toBeNull();
    const detail = SessionDetail.parse((await call(env.p, 'GET', `/api/sessions/${scheduledRoot}`)).json);
    expect(detail.schedule).toEqual({ id: scheduleId, name: 'Morning status' });
  });

  it('scheduled=false leaves scheduled sessions out of the page and its total; true keeps only them', async () => {
    const hidden = (await call(env.p, 'GET', '/api/sessions?scheduled=false')).json;
    expect(hidden.total).toBe(1);
    expect(hidden.data.map((s: { id: number }) => s.id)).toEqual([plainRoot]);
    const only = (await call(env.p, 'GET', '/api/sessions?scheduled=1')).json;
    expect(only.data.map((s: { id: number }) => s.id)).toEqual([scheduledRoot]);
    // Combined with a search and an agent.
    expect((await call(env.p, 'GET', `/api/sessions?scheduled=0&q=status&agent_id=${CHAT}`)).json.total).toBe(1);
  });

  it('a value that is not a boolean is 422 naming the field', async () => {
    const bad = await call(env.p, 'GET', '/api/sessions?scheduled=sometimes');
    expect(bad.status).toBe(422);
    expect(bad.json.errors.scheduled).toEqual(['The scheduled field must be true or false.']);
  });

  it("a schedule's name change shows; once the schedule is deleted its sessions are ordinary ones", async () => {
    expect((await call(env.p, 'PATCH', `/api/schedules/${scheduleId}`, { body: { name: null } })).status).toBe(200);
    const renamed = (await call(env.p, 'GET', '/api/sessions?scheduled=true')).json.data[0];
    expect(renamed.schedule).toEqual({ id: scheduleId, name: null });
    expect((await call(env.p, 'DELETE', `/api/schedules/${scheduleId}`)).status).toBe(200);
    const after = (await call(env.p, 'GET', '/api/sessions?scheduled=false')).json;
    expect(after.total).toBe(2);
    expect(after.data.every((s: { schedule: unknown }) => s.schedule === null)).toBe(true);
  });
});
