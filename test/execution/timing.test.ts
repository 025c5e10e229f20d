/**
 * ext `timing` on a finished answer: the time from the request to its first text (recorded when
 * the first text arrives) and the output tokens per second after it; none for an answer that
 * never produced text, and none while it runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { expectExecution } from '../api/spec-shapes.js';

describe('the speed of an answer', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ tokens: ['one ', 'two ', 'three ', 'four'], firstTokenDelayMs: 40, delayMs: 5 });
  });
  afterAll(async () => env?.close());

  const stored = async (id: number) => (await call(env.p, 'GET', `/api/agent-responses/${id}`)).json;

  it('a finished answer reads its time to first text and its tokens per second, stored and in its session', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('count to four'), wait_execution: true } });
    const done = r.json.responses[0];
    expect(done.status).toBe('succeeded');
    const e = await stored(done.id);
    expectExecution(e);
    // The fake waits 40 ms before its first token: the first text cannot come sooner.
    expect(Number.isInteger(e.timing.first_token_ms)).toBe(true);
    expect(e.timing.first_token_ms).toBeGreaterThanOrEqual(40);
    expect(typeof e.timing.tokens_per_second).toBe('number');
    expect(e.timing.tokens_per_second).toBeGreaterThan(0);
    const session = (await call(env.p, 'GET', `/api/sessions/${done.root_id}`)).json;
    expect(session.executions[0].timing).toEqual(e.timing);
  });

  it('an answer that failed before any text has no timing', async () => {
    env.fake.set({ fail: 'status', failStatus: 500 });
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('fail'), wait_execution: true } });
      const e = await stored(r.json.responses[0].id);
      expect(e.status).toBe('failed');
      expect('timing' in e).toBe(false);
    } finally {
      env.fake.set({ fail: null });
    }
  });
});
