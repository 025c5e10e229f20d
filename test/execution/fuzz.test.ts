import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { limit } from '../fixtures/until.js';

/** Every body a client can send gets 200 or a clear 4xx with the contract's envelope: never a 500. */
describe('execute: arbitrary bodies never cause a 500', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'ok' });
  });
  afterAll(async () => {
    // Let the accepted executions end before closing.
    for (const id of (env.p.db.prepare("SELECT id FROM executions WHERE status IN ('starting','running')").all() as { id: number }[]).map((r) => r.id)) {
      await env.p.services.executions.waitFor(1, id, 5000);
    }
    await env.close();
  });

  const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.string(), { maxKeys: 3 }));
  const message = fc.record({ role: fc.oneof(fc.constantFrom('user', 'assistant', 'developer', 'system', 'tool'), fc.string()), content: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }))) }, { requiredKeys: [] });
  const body = fc.record(
    {
      stream: fc.oneof(fc.boolean(), value),
      wait_execution: fc.oneof(fc.boolean(), value),
      temperature: fc.oneof(fc.constantFrom('0', '0.5', '1', 0.25), value),
      model: fc.oneof(fc.constantFrom('gpt-4o-mini', 'claude-sonnet-4-5', 'nope'), value),
      tools: fc.oneof(fc.constantFrom('no-tools', 'internet'), value),
      messages: fc.oneof(fc.array(message, { maxLength: 4 }), value),
      answers: fc.oneof(fc.dictionary(fc.constantFrom('model', 'temperature', 'tools', 'root_id', 'messages', 'x'), value, { maxKeys: 3 }), value),
      file_ids: fc.oneof(fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }), value),
      root_id: fc.oneof(fc.integer(), value),
    },
    { requiredKeys: [] },
  );

  it('holds for 300 random bodies', { timeout: limit(120_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: b });
        expect([200, 422]).toContain(r.status);
        if (r.status === 422) {
          expect(typeof r.json.message).toBe('string');
          expect(Object.keys(r.json.errors).length).toBeGreaterThan(0);
        } else if (r.headers.get('content-type')?.startsWith('text/event-stream')) {
          expect(['completed', 'failed']).toContain(JSON.parse(r.text.trim().split('\n\n').at(-1)!.slice(6)).status);
        } else {
          expect(r.json.responses[0].id).toBeTypeOf('number');
        }
      }),
      { numRuns: 300, seed: 4242 },
    );
  });

  it('a valid body is accepted (the property is not vacuous)', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('x') });
    expect(r.status).toBe(200);
  });
});
