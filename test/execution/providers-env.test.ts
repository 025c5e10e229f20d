/**
 * PUT /api/settings/providers replaces the saved providers only: the environment's (and detected)
 * ones stay unless an entry with a `kind` names their id; `{id, enabled}` switches them off or on.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, withFake } from './helpers.js';
import { ProvidersService } from '../../src-main/platform/modules/providers/service.js';
import { closePlatform, makePlatform } from '../api/helpers.js';

describe('saving providers keeps the environment', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'fine' });
  });
  afterAll(async () => env?.close());

  const put = (body: unknown) => call(env.p, 'PUT', '/api/settings/providers', { body });
  const byId = (r: { json: any }, id: string) => (r.json.providers as any[]).find((p) => p.id === id);
  const run = async () => (await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), wait_execution: true } })).json.responses[0];
  const lm = () => ({ id: 'lm', kind: 'openai-compatible', label: 'LM Studio', base_url: env.fake.url });

  it('adding a provider (or saving an empty list) leaves the env one as it is', async () => {
    const added = await put({ providers: [lm()] });
    expect(added.status).toBe(200);
    expect(byId(added, 'openai')).toMatchObject({ source: 'env', enabled: true, has_api_key: true });
    expect(byId(added, 'lm')).toMatchObject({ source: 'settings' });
    expect((await run()).status).toBe('succeeded');
    const empty = await put({ providers: [] });
    expect(byId(empty, 'lm')).toBeUndefined();
    expect(byId(empty, 'openai')).toMatchObject({ source: 'env', enabled: true });
  });

  it('{id, enabled: false} disables the env provider (kept from the env, surviving a restart); true enables it again', async () => {
    const off = await put({ providers: [lm(), { id: 'openai', enabled: false }] });
    expect(off.status).toBe(200);
    expect(byId(off, 'openai')).toMatchObject({ source: 'env', enabled: false, has_api_key: true, base_url: env.fake.url });
    expect(byId(off, 'lm')).toMatchObject({ source: 'settings', enabled: true });
    // Saving other things keeps it off.
    expect(byId(await put({ providers: [lm()] }), 'openai')).toMatchObject({ enabled: false });
    expect(await run()).toMatchObject({ status: 'failed', error: { code: 'model_unavailable' } });
    // A restart re-seeds from env and keeps the user's choice.
    const p = env.p;
    const again = new ProvidersService({ db: p.db, config: p.config, log: p.log, events: p.events }, p.services.settings, p.secrets);
    expect(again.view().providers.find((x) => x.id === 'openai')).toMatchObject({ source: 'env', enabled: false });
    const on = await put({ providers: [{ id: 'openai', enabled: true }] });
    expect(byId(on, 'openai')).toMatchObject({ source: 'env', enabled: true });
    expect((await run()).status).toBe('succeeded');
  });

  it('naming the id with a kind overrides it; leaving it out later brings the env one back', async () => {
    const over = await put({ providers: [{ id: 'openai', kind: 'openai-compatible', base_url: env.fake.url, label: 'Mine' }] });
    expect(over.json.providers.filter((x: any) => x.id === 'openai')).toEqual([expect.objectContaining({ source: 'settings', label: 'Mine', has_api_key: true })]);
    const back = await put({ providers: [] });
    expect(byId(back, 'openai')).toMatchObject({ source: 'env', label: null, enabled: true });
    expect((await run()).status).toBe('succeeded');
  });

  it('an entry without kind must name an env or detected provider and carry only enabled: else 422', async () => {
    const unknown = await put({ providers: [{ id: 'nope', enabled: false }] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.errors['providers.0.kind'][0]).toMatch(/not a provider from the environment/);
    const edit = await put({ providers: [{ id: 'openai', label: 'x' }] });
    expect(edit.status).toBe(422);
    expect(edit.json.errors['providers.0.kind'][0]).toMatch(/only enabled may be given/);
    const bad = await put({ providers: [{ id: 'openai', enabled: 'maybe' }] });
    expect(bad.status).toBe(422);
    // Nothing was changed by the refused requests.
    expect(byId(await call(env.p, 'GET', '/api/settings/providers'), 'openai')).toMatchObject({ source: 'env', enabled: true });
  });
});

describe('saving providers keeps the detected Ollama', () => {
  it('stays after a PUT and can be switched off and on', async () => {
    // No provider from the environment: the catch-all reaches the detected Ollama only.
    const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const ollama = http.createServer((req, res) => {
      res.writeHead(req.url === '/api/version' ? 200 : 404, { 'content-type': 'application/json' });
      res.end('{"version":"0.9.0"}');
    });
    await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
      const svc = new ProvidersService({ db: p.db, config: { ...p.config, env: {} }, log: p.log, events: p.events }, p.services.settings, p.secrets, { ollamaProbeUrl: url });
      await svc.detected;
      expect(svc.update({ providers: [] }).providers.find((x) => x.id === 'ollama')).toMatchObject({ source: 'auto', enabled: true });
      expect(svc.update({ providers: [{ id: 'ollama', enabled: false }] }).providers.find((x) => x.id === 'ollama')).toMatchObject({ source: 'auto', enabled: false });
      expect(() => svc.resolve('qwen3-235b-a22b')).toThrow(/No provider is configured/);
      svc.update({ providers: [{ id: 'ollama', enabled: true }] });
      expect(svc.resolve('qwen3-235b-a22b').id).toBe('ollama');
    } finally {
      await new Promise<void>((r) => ollama.close(() => r()));
      await closePlatform(p);
    }
  });
});
