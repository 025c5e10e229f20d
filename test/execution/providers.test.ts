import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, parseSSE, withFake } from './helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { matches } from '../../src-main/platform/modules/providers/service.js';
import type { SecretBox } from '../../src-main/platform/kernel/secrets.js';

/** A box that really transforms, so a test can tell sealed from plain. */
const rot: SecretBox = {
  encrypted: true,
  seal: (s) => `sealed:${Buffer.from(s).toString('base64')}`,
  open: (s) => Buffer.from(s.replace(/^sealed:/, ''), 'base64').toString(),
};

describe('Anthropic provider (Messages API SSE)', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let anth: FakeAnthropic;
  beforeAll(async () => {
    anth = await startFakeAnthropic({ tokens: ['Bon', 'jour', ' !'], delayMs: 2, apiKey: 'ak-test' });
    env = await withFake({}, { AGENT_DESK_ANTHROPIC_API_KEY: 'ak-test', AGENT_DESK_ANTHROPIC_BASE_URL: anth.url });
  });
  afterAll(async () => {
    await env.close();
    await anth.close();
  });

  it('routes claude-* to Anthropic, sends system apart, streams the deltas and counts usage', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('Salut', { model: 'claude-sonnet-4-5', stream: true }) });
    const events = parseSSE(r.text);
    expect(events.at(-1).status).toBe('completed');
    expect(events.slice(0, -1).map((e) => e.output).join('')).toBe('Bonjour !');
    const req = anth.requests.at(-1)!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe('ak-test');
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true, temperature: 0.5 });
    expect(req.body.max_tokens).toBeGreaterThan(0);
    expect(req.body.system).toMatch(/helpful/);
    expect(req.body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Salut' }] }]);
    // credits from the reported usage: base + input + 3 output tokens
    expect(events.at(-1).credits).toBeGreaterThan(0.01);
  });

  it('an error event mid-stream fails the execution with its message', async () => {
    anth.set({ fail: 'overloaded', breakAfter: 1 });
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x', { model: 'claude-haiku-4-5' }), wait_execution: true } });
      const e = r.json.responses[0];
      expect(e.status).toBe('failed');
      expect(e.output).toBe('Bon');
      expect(e.error.code).toBe('provider_error');
      expect(e.error.message).toMatch(/Overloaded/);
    } finally {
      anth.set({ fail: null });
    }
  });

  it('a wrong key is a provider_auth failure', async () => {
    anth.set({ apiKey: 'another' });
    try {
      const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x', { model: 'claude-haiku-4-5' }), wait_execution: true } });
      expect(r.json.responses[0].error).toMatchObject({ code: 'provider_auth' });
      expect(r.json.responses[0].error.message).toMatch(/401/);
    } finally {
      anth.set({ apiKey: 'ak-test' });
    }
  });
});

describe('settings: providers (ext)', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ models: ['gpt-4o-mini', 'my-local-model'], apiKey: 'sk-fake' }, {}, { secrets: rot });
  });
  afterAll(() => env.close());

  it('shows env-seeded providers without their secrets', async () => {
    const r = await call(env.p, 'GET', '/api/settings/providers');
    expect(r.status).toBe(200);
    expect(r.json.providers).toEqual([
      { id: 'openai', kind: 'openai-compatible', label: null, base_url: env.fake.url, models_dir: null, has_api_key: true, enabled: true, context_window: null, source: 'env' },
    ]);
    expect(r.text).not.toContain('sk-fake');
    expect(r.json.secrets_encrypted).toBe(true);
    expect(r.json.routes[0]).toEqual({ match: 'claude-*', provider: 'anthropic' });
    expect(r.json.search).toEqual({ searxng_url: null, brave_has_api_key: false, configured: false });
    // sealed at rest
    const stored = env.p.db.prepare("SELECT value FROM settings WHERE key = 'providers.list'").get() as { value: string };
    expect(stored.value).not.toContain('sk-fake');
    expect(stored.value).toContain('sealed:');
  });

  it('tests reachability and lists models; a bad key is reported, not thrown', async () => {
    const ok = await call(env.p, 'POST', '/api/settings/providers/test', { body: { id: 'openai' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ ok: true, models: ['gpt-4o-mini', 'my-local-model'], error: null });
    const bad = await call(env.p, 'POST', '/api/settings/providers/test', { body: { provider: { id: 'trial', kind: 'openai-compatible', base_url: env.fake.url, api_key: 'wrong' } } });
    expect(bad.json.ok).toBe(false);
    expect(bad.json.error).toMatch(/401/);
    const down = await call(env.p, 'POST', '/api/settings/providers/test', { body: { provider: { id: 'trial', kind: 'ollama', base_url: 'http://127.0.0.1:9' } } });
    expect(down.json).toMatchObject({ ok: false, models: [] });
    expect((await call(env.p, 'POST', '/api/settings/providers/test', { body: { id: 'nope' } })).status).toBe(422);
    expect((await call(env.p, 'POST', '/api/settings/providers/test', { body: {} })).status).toBe(422);
  });

  it('PUT keeps an omitted key, routes a custom model, and refuses bad input with 422', async () => {
    const put = await call(env.p, 'PUT', '/api/settings/providers', {
      body: {
        providers: [{ id: 'openai', kind: 'openai-compatible', base_url: env.fake.url }],
        routes: [{ match: 'my-*', provider: 'openai' }, { match: '*', provider: 'openai' }],
        default_model: 'my-local-model',
      },
    });
    expect(put.status).toBe(200);
    expect(put.json.providers[0]).toMatchObject({ id: 'openai', has_api_key: true, source: 'settings' });
    expect(put.json.routes).toHaveLength(2);
    const agent = await call(env.p, 'POST', '/api/agents', { body: { title: 'Free', type: 'chat', questions: [] } });
    const r = await call(env.p, 'POST', `/api/agents/${agent.json.id}/execute`, { body: { messages: [{ role: 'user', content: 'hi' }], wait_execution: true } });
    expect(r.json.responses[0].status).toBe('succeeded');
    expect(env.fake.requests.at(-1)!.body.model).toBe('my-local-model');
    expect(env.fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-fake');

    for (const body of [
      { providers: [{ id: 'Bad Id', kind: 'openai-compatible' }] },
      { providers: [{ id: 'x', kind: 'telepathy' }] },
      { providers: [{ id: 'x', kind: 'openai-compatible', base_url: 'ftp://x' }] },
      { providers: [{ id: 'x', kind: 'gguf' }] },
      { providers: [{ id: 'x', kind: 'anthropic' }] },
      { providers: [{ id: 'a', kind: 'ollama' }, { id: 'a', kind: 'ollama' }] },
      { routes: [{ match: '', provider: 'x' }] },
      { search: { searxng_url: 'not a url' } },
    ]) {
      const bad = await call(env.p, 'PUT', '/api/settings/providers', { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.json.errors).toBeTypeOf('object');
    }
    // removing the key with null
    const cleared = await call(env.p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'openai', kind: 'openai-compatible', base_url: env.fake.url, api_key: null }] } });
    expect(cleared.json.providers[0].has_api_key).toBe(false);
  });

  it('stores the web search settings without echoing the key', async () => {
    const r = await call(env.p, 'PUT', '/api/settings/providers', { body: { search: { searxng_url: 'http://127.0.0.1:8888', brave_api_key: 'brave-secret' } } });
    expect(r.status).toBe(200);
    expect(r.json.search).toEqual({ searxng_url: 'http://127.0.0.1:8888', brave_has_api_key: true, configured: true });
    expect(r.text).not.toContain('brave-secret');
    expect(env.p.services.providers.search()).toEqual({ searxngUrl: 'http://127.0.0.1:8888', braveApiKey: 'brave-secret', allowPrivateFetch: false });
    const kept = await call(env.p, 'PUT', '/api/settings/providers', { body: { search: { searxng_url: null } } });
    expect(kept.json.search).toEqual({ searxng_url: null, brave_has_api_key: true, configured: true });
  });

  it('a disabled provider makes its models unavailable', async () => {
    await call(env.p, 'PUT', '/api/settings/providers', { body: { providers: [{ id: 'openai', kind: 'openai-compatible', base_url: env.fake.url, enabled: false }], routes: [{ match: '*', provider: 'openai' }] } });
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), wait_execution: true } });
    expect(r.json.responses[0].error.code).toBe('model_unavailable');
    expect(r.json.responses[0].error.message).toMatch(/^No provider is configured for model gpt-4o-mini\. Add one in Settings → Providers, or set AGENT_DESK_OPENAI_API_KEY/);
  });
});

describe('routing', () => {
  it('matches exact names, prefixes, suffixes and the catch-all', () => {
    expect(matches('claude-*', 'claude-sonnet-4-5')).toBe(true);
    expect(matches('claude-*', 'gpt-5')).toBe(false);
    expect(matches('*.gguf', 'tiny.GGUF')).toBe(true);
    expect(matches('*', 'anything')).toBe(true);
    expect(matches('gpt-5', 'gpt-5')).toBe(true);
    expect(matches('gpt-5', 'gpt-5-mini')).toBe(false);
  });

  it('a GGUF name routes to the local engine only when the file exists', async () => {
    const dir = fs.mkdtempSync('/tmp/agent-desk-models-');
    fs.writeFileSync(`${dir}/tiny.gguf`, 'not really a model');
    const env = await withFake({}, { AGENT_DESK_MODELS_DIR: dir });
    try {
      expect(env.p.services.providers.resolve('tiny.gguf').id).toBe('local');
      expect(env.p.services.providers.resolve('tiny').id).toBe('local');
      expect(env.p.services.providers.resolve('gpt-4o').id).toBe('openai');
      expect(() => env.p.services.providers.resolve('other.gguf')).toThrow(/No provider is configured for model other\.gguf/);
      // A broken file fails the execution with a clear message, never a 500.
      const agent = await call(env.p, 'POST', '/api/agents', { body: { title: 'Local', type: 'chat', questions: [{ type: 'select', name: 'model', description: 'm', required: true, options: ['tiny.gguf'] }] } });
      const r = await call(env.p, 'POST', `/api/agents/${agent.json.id}/execute`, { body: { model: 'tiny.gguf', messages: [{ role: 'user', content: 'hi' }], wait_execution: true } });
      expect(r.status).toBe(200);
      expect(r.json.responses[0].status).toBe('failed');
      expect(r.json.responses[0].error.code).toBe('model_unavailable');
    } finally {
      await env.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
