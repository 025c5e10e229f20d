import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../api/helpers.js';
import { poll, withFake } from '../execution/helpers.js';
import { addServer, ask, everythingStdio, lastToolResult, toolAgent } from './helpers.js';
import type { Clock } from '../../src-main/platform/modules/tools/approvals.js';
import { limit } from '../fixtures/until.js';

let env: Awaited<ReturnType<typeof withFake>>;
let server: number;
let agent: number;
const p = () => env.p;

/** A clock whose timers fire only when the test advances it. */
function manualClock() {
  let now = 0;
  const timers: { at: number; fn: () => void; done: boolean }[] = [];
  const clock: Clock = {
    after(ms, fn) {
      const t = { at: now + ms, fn, done: false };
      timers.push(t);
      return () => void (t.done = true);
    },
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const t of timers) {
        if (t.done || t.at > now) continue;
        t.done = true;
        t.fn();
      }
    },
    pending: () => timers.filter((t) => !t.done).length,
  };
}

beforeAll(async () => {
  env = await withFake({
    toolCalls: (b) => (b.tools?.length && !lastToolResult(b) ? [{ name: 'echo', arguments: '{"message":"needs a yes"}' }] : null),
    tokens: (b) => ['Result: ', lastToolResult(b) ?? 'none'],
  });
  server = (await addServer(p(), everythingStdio({ approval: 'ask' }))).id;
  agent = await toolAgent(p(), [server]);
});
afterAll(() => env.close());

async function startWaiting() {
  const started = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('echo please') })).json.responses[0];
  const waiting = await poll(p(), started.id, (x) => x.status === 'awaiting_approval', 30_000);
  return waiting;
}

describe('approvals over the API', () => {
  it('ask: the execution waits in awaiting_approval with the tool, its arguments and server; approve runs it', async () => {
    const w = await startWaiting();
    expect(w.steps[0]).toMatchObject({ id: 1, status: 'awaiting_approval', tool: 'echo', server: 'everything', server_id: server, arguments: { message: 'needs a yes' }, approved: null });
    // ext: when it is denied unanswered (120 s after it began to wait), for a countdown.
    const left = Date.parse(w.steps[0].approval_expires_at) - Date.now();
    expect(left).toBeGreaterThan(60_000);
    expect(left).toBeLessThanOrEqual(120_000);
    const r = await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/1/approve`);
    expect(r.status).toBe(200);
    const done = await poll(p(), w.id, (x) => x.status === 'succeeded' || x.status === 'failed');
    expect(done.status).toBe('succeeded');
    expect(done.output).toBe('Result: Echo: needs a yes');
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', approved: 'user', result: 'Echo: needs a yes' });
    expect(done.steps[0].approval_expires_at).toBeUndefined();
    // Answered already: a second answer is a 409, an unknown step too; another user's or unknown execution 404.
    expect((await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/1/approve`)).status).toBe(409);
    expect((await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/7/deny`)).status).toBe(409);
    expect((await call(p(), 'POST', `/api/agent-responses/999999/steps/1/approve`)).status).toBe(404);
  }, limit(60_000));

  it('deny: the model is told the user denied the call, and the step says denied', async () => {
    const w = await startWaiting();
    expect((await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/1/deny`)).status).toBe(200);
    const done = await poll(p(), w.id, (x) => x.status === 'succeeded' || x.status === 'failed');
    expect(done.steps[0]).toMatchObject({ status: 'denied', approved: null, error: 'The user denied this call.' });
    expect(done.output).toMatch(/^Result: Error: the user denied this tool call/);
  }, limit(60_000));

  it('unanswered for 120 s (injected clock) the call is denied, so an unattended client never hangs', async () => {
    const m = manualClock();
    p().services.tools.approvals.clock = m.clock;
    try {
      const w = await startWaiting();
      expect(m.pending()).toBe(1);
      m.advance(119_999);
      expect((await call(p(), 'GET', `/api/agent-responses/${w.id}`)).json.status).toBe('awaiting_approval');
      m.advance(1);
      const done = await poll(p(), w.id, (x) => x.status === 'succeeded' || x.status === 'failed');
      expect(done.status).toBe('succeeded');
      expect(done.steps[0].status).toBe('denied');
    } finally {
      p().services.tools.approvals.clock = (await import('../../src-main/platform/modules/tools/approvals.js')).realClock;
    }
  }, limit(60_000));

  it('always: approves this call and lets the tool run unasked from then on', async () => {
    const w = await startWaiting();
    await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/1/approve`, { body: { always: true } });
    await poll(p(), w.id, (x) => x.status === 'succeeded');
    expect((await call(p(), 'GET', `/api/mcp-servers/${server}`)).json.always_tools).toEqual(['echo']);
    const next = (await call(p(), 'POST', `/api/agents/${agent}/execute`, { body: ask('again', { wait_execution: true }) })).json.responses[0];
    expect(next.status).toBe('succeeded');
    expect(next.steps[0]).toMatchObject({ status: 'succeeded', approved: 'auto' });
    await call(p(), 'PATCH', `/api/mcp-servers/${server}`, { body: { always_tools: [] } });
  }, limit(60_000));

  it('cancel while waiting for approval ends the run at once', async () => {
    const w = await startWaiting();
    const c = await call(p(), 'POST', `/api/agent-responses/${w.id}/cancel`);
    expect(c.json.status).toBe('canceled');
    expect(c.json.steps[0].status).toBe('failed');
    expect((await call(p(), 'POST', `/api/agent-responses/${w.id}/steps/1/approve`)).status).toBe(409);
  }, limit(60_000));
});
