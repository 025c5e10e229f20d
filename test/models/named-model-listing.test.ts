/**
 * A run that names a listed model (not one of the agent's options) is accepted before anything
 * listed the provider, even when a default model is set: the listing is asked for, not skipped (a schedule's first run
 * after a start names such a model).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

describe('a named listed model with a default model set', () => {
  it('runs on the first request, before anything listed the provider', async () => {
    const lm: FakeServer = await startFakeOpenAI({ models: ['llama-3.1-8b', 'qwen2.5-7b-instruct'], reply: 'from qwen' });
    open.push(lm);
    const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    open.push({ close: () => closePlatform(p) });
    // Saving lists nothing: the provider has not been asked for its models when the run comes.
    await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'lm', kind: 'openai-compatible', base_url: lm.url }], default_model: 'llama-3.1-8b' } });
    expect(lm.requests.some((r) => r.path === '/v1/models')).toBe(false);
    const run = await call(p, 'POST', '/api/agents/1/execute', { body: { model: 'qwen2.5-7b-instruct', temperature: '0.5', tools: 'no-tools', messages: [{ role: 'user', content: 'Hi' }], wait_execution: true } });
    expect(run.status, JSON.stringify(run.json)).toBe(200);
    expect(run.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'from qwen', model: 'qwen2.5-7b-instruct' });
  });
});
