import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, parseSSE, withFake } from './helpers.js';
import { tempDir } from '../api/helpers.js';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';
import { limit } from '../fixtures/until.js';

/**
 * The in-process GGUF engine (node-llama-cpp, prebuilt CPU binary) on a random-weight tiny
 * llama written by the test: gibberish, but real tokens streamed through the same path as any provider.
 */
describe('GGUF engine', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let modelsDir: string;
  let agentId: number;
  beforeAll(async () => {
    modelsDir = tempDir('agent-desk-models-');
    writeTinyLlama(`${modelsDir}/tiny-random.gguf`, { seed: 7 });
    env = await withFake({}, { AGENT_DESK_MODELS_DIR: modelsDir });
    const agent = await call(env.p, 'POST', '/api/agents', {
      body: { title: 'Offline', type: 'chat', instructions: 'Be brief.', questions: [{ type: 'select', name: 'model', description: 'Model', required: true, options: ['tiny-random.gguf'] }, { type: 'array', name: 'messages', description: 'Chat', required: true }] },
    });
    agentId = agent.json.id;
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('lists the file as a model of the local provider', async () => {
    const t = await call(env.p, 'POST', '/api/settings/providers/test', { body: { id: 'local' } });
    expect(t.json).toMatchObject({ ok: true, models: ['tiny-random.gguf'] });
  });

  it('streams tokens of a GGUF file through the execution stream and stores the result', { timeout: limit(120_000) }, async () => {
    const r = await call(env.p, 'POST', `/api/agents/${agentId}/execute`, { body: { model: 'tiny-random.gguf', messages: [{ role: 'user', content: 'hello there' }], stream: true } });
    expect(r.status).toBe(200);
    const events = parseSSE(r.text);
    const last = events.at(-1);
    expect(last.status, JSON.stringify(last.error)).toBe('completed');
    const text = events.slice(0, -1).map((e) => e.output).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.output).length).toBeGreaterThan(0);
    expect(last.credits).toBeGreaterThan(0.01);
    const stored = await call(env.p, 'GET', `/api/agent-responses/${last.id}`);
    expect(stored.json).toMatchObject({ status: 'succeeded', output: text, model: 'tiny-random.gguf' });
    // Never an OpenAI-compatible call: the fake saw nothing.
    expect(env.fake.requests).toHaveLength(0);
  });
});
