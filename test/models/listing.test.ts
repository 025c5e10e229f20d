import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { call, closePlatform, makePlatform } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { parseSSE } from '../execution/helpers.js';

const ENV = { AGENT_DESK_OLLAMA_AUTODETECT: '0' };
const CHAT = 1;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function fake(models: string[], reply = 'Hello from the local server.'): Promise<FakeServer> {
  const f = await startFakeOpenAI({ models, reply });
  open.push(f);
  return f;
}

function platform(env: Record<string, string> = {}) {
  const p = makePlatform({ env: { ...ENV, ...env } });
  open.push({ close: () => closePlatform(p) });
  return p;
}

/** A closed port: a provider there never answers. */
async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('GET /api/models: the models people have', () => {
  it('lists what a provider added in Settings serves, and that provider is usable at once', async () => {
    const lm = await fake(['llama-3.1-8b', 'qwen2.5-7b-instruct']);
    const p = platform();
    const put = await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'lmstudio', kind: 'openai-compatible', label: 'LM Studio', base_url: lm.url }] } });
    expect(put.status).toBe(200);

    const models = await call(p, 'GET', '/api/models');
    expect(models.status).toBe(200);
    expect(models.json).toEqual([
      { id: 'llama-3.1-8b', provider: 'lmstudio', label: 'llama-3.1-8b', context_window: 128_000, source: 'listed' },
      { id: 'qwen2.5-7b-instruct', provider: 'lmstudio', label: 'qwen2.5-7b-instruct', context_window: 128_000, source: 'listed' },
    ]);
    // Nothing else is configured, so no option of the chat agent routes anywhere: none is offered.
    expect(models.json.some((m: any) => m.source === 'option')).toBe(false);

    // The default model, unset, is the first configured provider's first model.
    expect((await call(p, 'GET', '/api/models/default')).json).toEqual({ model: 'llama-3.1-8b', provider: 'lmstudio', source: 'first_listed' });

    // Chatting with the listed model works with no routing rule edited.
    const run = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { temperature: '0.5', model: 'llama-3.1-8b', tools: 'no-tools', messages: [{ role: 'user', content: 'Hi' }], wait_execution: true } });
    expect(run.status).toBe(200);
    expect(run.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Hello from the local server.', model: 'llama-3.1-8b' });
    expect(lm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('llama-3.1-8b');

    // An execute body without a model answer runs on the default model (CONTRACT.md "Compatibility").
    const omitted = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { messages: [{ role: 'user', content: 'Hi' }], wait_execution: true } });
    expect(omitted.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Hello from the local server.' });
    expect(lm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body.model).toBe('llama-3.1-8b');

    // A model nobody serves is still refused before anything runs.
    const bad = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { temperature: '0.5', model: 'not-served-anywhere', tools: 'no-tools', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors.model).toEqual(['The selected model is invalid.']);
  });

  it('/v1/chat/completions with model "chat" runs on the default model with only an OpenAI-compatible server configured', async () => {
    const lm = await fake(['llama-3.1-8b'], 'Streamed from llama.');
    const p = platform();
    await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'lmstudio', kind: 'openai-compatible', base_url: lm.url }] } });
    const res = await call(p, 'POST', '/v1/chat/completions', { body: { model: 'chat', stream: true, messages: [{ role: 'user', content: 'Hello?' }] } });
    expect(res.status).toBe(200);
    const chunks = res.text
      .split('\n\n')
      .filter((b) => b.startsWith('data: ') && b !== 'data: [DONE]')
      .map((b) => JSON.parse(b.slice(6)));
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('Streamed from llama.');
    expect(lm.requests.find((r) => r.path === '/v1/chat/completions')!.body.model).toBe('llama-3.1-8b');

    // The execute API's stream too, on the listed model.
    const ex = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { temperature: '0.5', model: 'llama-3.1-8b', tools: 'no-tools', stream: true, messages: [{ role: 'user', content: 'x' }] } });
    expect(parseSSE(ex.text).at(-1)).toMatchObject({ status: 'completed' });
  });

  it('a model one provider lists goes to it before any pattern rule', async () => {
    const cloud = await fake(['gpt-5'], 'from the env provider');
    const local = await fake(['gpt-oss-20b'], 'from the local server');
    const p = platform({ AGENT_DESK_OPENAI_BASE_URL: cloud.url, AGENT_DESK_OPENAI_API_KEY: 'sk-x' });
    await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'lmstudio', kind: 'openai-compatible', base_url: local.url }] } });
    // `gpt-*` is a rule for `openai`; the local server lists gpt-oss-20b, so it answers.
    await call(p, 'GET', '/api/models');
    expect(p.services.providers.resolve('gpt-oss-20b').id).toBe('lmstudio');
    expect(p.services.providers.resolve('gpt-5').id).toBe('openai');
    const run = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { temperature: '0.5', model: 'gpt-oss-20b', tools: 'no-tools', messages: [{ role: 'user', content: 'Hi' }], wait_execution: true } });
    expect(run.json.responses[0].output).toBe('from the local server');
    // Listings by provider, in settings order; the default is the first provider's first model.
    const list = (await call(p, 'GET', '/api/models')).json;
    expect(list.map((m: any) => `${m.provider}:${m.id}`)).toEqual(['openai:gpt-5', 'lmstudio:gpt-oss-20b']);
    expect((await call(p, 'GET', '/api/models/default')).json.model).toBe('gpt-5');
    // A set default wins.
    await call(p, 'PUT', '/api/settings/providers', { body: { default_model: 'gpt-oss-20b' } });
    expect((await call(p, 'GET', '/api/models/default')).json).toEqual({ model: 'gpt-oss-20b', provider: null, source: 'setting' });
  });

  it('a provider that does not answer is skipped with its error noted; options that route to it are offered', async () => {
    const lm = await fake(['llama-3.1-8b']);
    const dead = await deadUrl();
    const p = platform({ AGENT_DESK_OPENAI_BASE_URL: dead, AGENT_DESK_OPENAI_API_KEY: 'sk-x' });
    await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'lmstudio', kind: 'openai-compatible', base_url: lm.url }] } });
    const res = await call(p, 'GET', '/api/models');
    expect(res.status).toBe(200);
    expect(res.json).toContainEqual({ id: 'llama-3.1-8b', provider: 'lmstudio', label: 'llama-3.1-8b', context_window: 128_000, source: 'listed' });
    // The seeded chat agent's options route to `openai` (its rules), which cannot say what it serves.
    const options = res.json.filter((m: any) => m.source === 'option');
    expect(options.length).toBeGreaterThan(10);
    expect(options.every((m: any) => m.provider === 'openai')).toBe(true);
    expect(options.map((m: any) => m.id)).toContain('gpt-5');
    const sources = (await call(p, 'GET', '/api/models/sources')).json;
    expect(sources).toEqual([
      // Providers without a label are named by their address, never by their id.
      { provider: 'openai', label: `Server at ${new URL(dead).host}`, ok: false, error: expect.stringMatching(/.+/), count: 0 },
      { provider: 'lmstudio', label: `Server at ${new URL(lm.url).host}`, ok: true, error: null, count: 1 },
    ]);
    // The first configured provider lists nothing: the default comes from the next one.
    expect((await call(p, 'GET', '/api/models/default')).json.model).toBe('llama-3.1-8b');
    expect((await call(p, 'GET', '/api/models?agent_id=999999')).status).toBe(404);
  });

  it('lists GGUF files of the models folder (source file) and Ollama tags', async () => {
    const p = platform();
    fs.mkdirSync(path.join(p.dir, 'models'), { recursive: true });
    fs.writeFileSync(path.join(p.dir, 'models', 'tiny-model.gguf'), 'GGUF');
    fs.writeFileSync(path.join(p.dir, 'models', '.half.gguf.part'), 'GG');
    const ollama = http.createServer((req, res) => {
      if (req.url === '/api/tags') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ models: [{ name: 'llama3.2:1b' }, { name: 'qwen2.5:0.5b' }] }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', r));
    open.push({ close: () => new Promise<void>((r) => ollama.close(() => r())) });
    const url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
    await call(p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'ollama', kind: 'ollama', base_url: url }] } });
    const list = (await call(p, 'GET', '/api/models')).json;
    expect(list).toEqual([
      { id: 'llama3.2:1b', provider: 'ollama', label: 'llama3.2:1b', context_window: 8192, source: 'listed' },
      { id: 'qwen2.5:0.5b', provider: 'ollama', label: 'qwen2.5:0.5b', context_window: 128_000, source: 'listed' },
      { id: 'tiny-model.gguf', provider: 'local', label: 'tiny-model', context_window: 4096, source: 'file' },
    ]);
  });

  it('first-run setup adds one provider with one call and finds servers on their usual ports', async () => {
    const lm = await fake(['llama-3.1-8b']);
    const p = platform({ AGENT_DESK_PROBE_LMSTUDIO_URL: lm.origin, AGENT_DESK_PROBE_OLLAMA_URL: (await deadUrl()).replace(/\/v1$/, '') });
    const found = (await call(p, 'GET', '/api/models/local-servers')).json;
    expect(found).toEqual([
      { kind: 'ollama', name: 'Ollama', url: expect.any(String), found: false, models: [], configured: false },
      { kind: 'lmstudio', name: 'LM Studio', url: `${lm.origin}/v1`, found: true, models: ['llama-3.1-8b'], configured: false },
    ]);
    const setup = await call(p, 'POST', '/api/models/setup', { body: { kind: 'lmstudio', base_url: `${lm.origin}/v1` } });
    expect(setup.status).toBe(200);
    expect(setup.json).toMatchObject({ provider: 'lmstudio', ok: true, error: null, models: [{ id: 'llama-3.1-8b', source: 'listed' }], default: { model: 'llama-3.1-8b' } });
    expect((await call(p, 'GET', '/api/models/local-servers')).json[1].configured).toBe(true);
    // A server that does not answer is not saved; one that does is added beside the others.
    const dead = await call(p, 'POST', '/api/models/setup', { body: { kind: 'openai-compatible', base_url: await deadUrl() } });
    expect(dead.json).toMatchObject({ provider: 'server', ok: false, error: expect.stringMatching(/.+/), models: [] });
    expect((await call(p, 'GET', '/api/settings/providers')).json.providers.map((x: any) => x.id)).toEqual(['lmstudio']);
    const other = await fake(['qwen2.5-7b-instruct']);
    const added = await call(p, 'POST', '/api/models/setup', { body: { kind: 'openai-compatible', base_url: other.url } });
    expect(added.json).toMatchObject({ provider: 'server', ok: true, models: [{ id: 'qwen2.5-7b-instruct' }], default: { model: 'llama-3.1-8b' } });
    expect((await call(p, 'GET', '/api/settings/providers')).json.providers.map((x: any) => x.id)).toEqual(['lmstudio', 'server']);
    // Bad input: 422 with the envelope.
    const bad = await call(p, 'POST', '/api/models/setup', { body: { kind: 'lmstudio', base_url: 'ftp://x' } });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toHaveProperty('base_url');
    expect((await call(p, 'POST', '/api/models/setup', { body: { kind: 'nope' } })).status).toBe(422);
    expect((await call(p, 'GET', '/api/models/catalog')).json.every((m: any) => m.url.startsWith('https://huggingface.co/') && m.url.endsWith('.gguf'))).toBe(true);
  });
});
