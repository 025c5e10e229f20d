import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { problemsWith } from '../fuzz/answers.js';
import { hostileValue } from '../fuzz/arbitraries.js';
import { cleanup, FUZZ_SEED, fuzzPlatform, send } from '../fuzz/harness.js';
import { limit } from '../fixtures/until.js';

/**
 * Hostile conversations that pass the schemas and reach the gateway's readers: a real model name
 * (the chat agent's), then items, blocks, tools and tool choices built from hostile pieces. No 5xx,
 * every error in its path's dialect.
 */
const p = fuzzPlatform();
afterAll(() => cleanup(p));

const piece = fc.oneof(hostileValue, fc.constantFrom('user', 'assistant', 'tool', 'system', 'function_call', 'function_call_output', 'tool_use', 'tool_result', 'image', 'input_image', 'text', 'data:image/png;base64,AAAA'));
const obj = fc.dictionary(fc.constantFrom('type', 'role', 'content', 'text', 'call_id', 'name', 'arguments', 'output', 'id', 'input', 'tool_use_id', 'source', 'image_url', 'tool_calls', 'tool_call_id'), piece, { maxKeys: 6 });
const valid = fc.string({ maxLength: 40 }).map((text) => [{ role: 'user', content: text || 'hi' }]);
const list = fc.oneof({ weight: 1, arbitrary: valid }, { weight: 4, arbitrary: randomList() });
function randomList() {
  return fc.array(fc.oneof(obj, fc.record({ role: fc.constantFrom('user', 'assistant', 'tool'), content: fc.oneof(fc.string(), fc.array(obj, { maxLength: 3 })) })), { minLength: 1, maxLength: 4 });
}

const bodies: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  '/v1/chat/completions': fc.record({ messages: list, tools: fc.option(fc.array(obj, { maxLength: 2 }), { nil: undefined }), tool_choice: fc.option(piece, { nil: undefined }) }),
  '/v1/responses': fc.record({ input: fc.oneof(fc.string(), list), tools: fc.option(fc.array(obj, { maxLength: 2 }), { nil: undefined }), tool_choice: fc.option(piece, { nil: undefined }), previous_response_id: fc.option(fc.constantFrom('resp_1', 'resp_x', 'resp_99999999999'), { nil: undefined }) }),
  '/v1/messages': fc.record({ max_tokens: fc.constant(10), messages: list, system: fc.option(fc.oneof(fc.string(), fc.array(obj, { maxLength: 2 })), { nil: undefined }), tools: fc.option(fc.array(obj, { maxLength: 2 }), { nil: undefined }), tool_choice: fc.option(obj, { nil: undefined }) }),
};

describe('gateway readers: hostile conversations with a valid model', () => {
  for (const [path, arb] of Object.entries(bodies)) {
    it(`${path}: no 5xx, errors in the path's dialect`, async () => {
      let reachedRun = 0;
      await fc.assert(
        fc.asyncProperty(arb, fc.boolean(), async (body, stream) => {
          const req = { method: 'POST', url: path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'chat', stream, ...body }), kind: 'gateway' };
          const a = await send(p, req);
          if (!a) return;
          // No provider is configured: a conversation the readers accept runs and fails at the model (a 400 naming its execution).
          if (a.headers.get('x-agent-desk-execution-id')) reachedRun++;
          expect(problemsWith(a, req), `${path} ${req.body.slice(0, 300)} -> ${a.status} ${a.text.slice(0, 200)}`).toEqual([]);
        }),
        { seed: FUZZ_SEED, numRuns: 150, endOnFailure: true },
      );
      // The property reached the readers' accepting side too, not only their refusals.
      expect(reachedRun).toBeGreaterThan(0);
    }, limit(120_000));
  }
});
