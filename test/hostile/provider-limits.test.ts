/**
 * A hostile provider against a whole execution: its endless tool-call arguments end the
 * execution `failed` at the cap, with the contract's error shape, the connection closed and the
 * memory flat. (Time limits are proven against the stream readers with a manual clock, in
 * provider-streams.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from '../execution/helpers.js';
import { until } from '../fixtures/until.js';

const MB = 1024 * 1024;
let env: Awaited<ReturnType<typeof withFake>>;

beforeAll(async () => {
  env = await withFake();
});
afterAll(() => env.close());

describe('a provider whose tool-call arguments never end', () => {
  it('endless tool-call arguments end the execution failed at the cap without growing memory', async () => {
    // 128 MB is only the fake's own bound: a reader without a cap would take it all.
    env.fake.set({ endlessToolArguments: { maxBytes: 128 * MB } });
    global.gc?.();
    const base = process.memoryUsage();
    let peak = base.heapUsed + base.arrayBuffers;
    const sample = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers);
    }, 5);
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('Write it all down.'), wait_execution: true } });
      const e = r.json.responses[0];
      expect(e.status).toBe('failed');
      expect(e.error).toEqual({ code: 'tool_call_too_long', message: expect.stringMatching(/sent more than 4 MB of tool-call arguments in one answer; Agent Desk stopped it\.$/) });
      const stored = (await call(env.p, 'GET', `/api/agent-responses/${e.id}`)).json;
      expect(stored).toMatchObject({ status: 'failed', error: { code: 'tool_call_too_long' } });
      await until('the fake to see the connection closed', () => env.fake.sent.closedByClient > 0);
    } finally {
      clearInterval(sample);
      env.fake.set({ endlessToolArguments: null });
    }
    // The reader stopped at the cap: the fake got nowhere near its 128 MB, and the heap stayed flat.
    expect(env.fake.sent.toolArgumentBytes).toBeLessThan(48 * MB);
    expect((peak - (base.heapUsed + base.arrayBuffers)) / MB).toBeLessThan(96);
  });
});
