import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, poll } from './helpers.js';
import { makePlatform, tempDir } from '../api/helpers.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { until } from '../fixtures/until.js';
import { tokenGate } from '../fixtures/token-gate.js';

describe('execution lifecycle across shutdown and restart', () => {
  it('shutdown lets a running execution finish within the grace period, fails the ones that hang, and a restart shows both', async () => {
    // The first answer is held after its first token until the test lets it go; no clock decides.
    const held = tokenGate();
    const fake = await startFakeOpenAI({ tokens: ['slow ', 'but ', 'finishes'], gate: held.gate });
    const dir = tempDir();
    const env = { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0' };
    try {
      const p = makePlatform({ dataDir: dir, env });
      held.allow(1);
      const finishing = (await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('a') })).json.responses[0].id;
      await poll(p, finishing, (e) => e.output.length > 0);
      fake.set({ fail: 'hang' });
      const hanging = (await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('b') })).json.responses[0].id;
      await poll(p, hanging, (e) => e.status === 'running');
      await until('its request to reach the fake', () => fake.requests.filter((r) => r.path === '/v1/chat/completions').length >= 2);
      // The grace period ends when the test says so: after the held answer, released now, has been stored.
      let endGrace!: () => void;
      const closing = p.services.executions.shutdown(new Promise<void>((r) => (endGrace = r)));
      // New work is refused while shutting down: a clear 503, not a crash.
      const refused = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('c') });
      expect(refused.status).toBe(503);
      expect(refused.json.message).toMatch(/shutting down/);
      held.allow(Infinity);
      await poll(p, finishing, (e) => e.status === 'succeeded');
      endGrace();
      await closing;
      await p.close();

      const again = makePlatform({ dataDir: dir, env });
      try {
        const f = (await call(again, 'GET', `/api/agent-responses/${finishing}`)).json;
        expect(f, JSON.stringify(f)).toMatchObject({ status: 'succeeded', output: 'slow but finishes' });
        const h = (await call(again, 'GET', `/api/agent-responses/${hanging}`)).json;
        expect(h.status).toBe('failed');
        expect(h.error.code).toBe('interrupted');
        expect(h.error.message).toMatch(/stopped before this execution finished/);
      } finally {
        await again.close();
      }
    } finally {
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('at start-up, executions a dead process left starting/running are marked failed with a reason', async () => {
    const dir = tempDir();
    try {
      const p = makePlatform({ dataDir: dir, env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
      const now = Date.now() * 1000;
      const ins = p.db.prepare("INSERT INTO executions(agent_id, user_id, root_id, status, input, output, credits, created_at, updated_at) VALUES (1, 1, NULL, ?, 'q', 'partial', 0.01, ?, ?)");
      const a = Number(ins.run('running', now, now).lastInsertRowid);
      const b = Number(ins.run('starting', now, now).lastInsertRowid);
      // Simulate kill -9: close the database under the platform without its shutdown hooks.
      p.shutdownHooks.length = 0;
      await p.close();
      const again = makePlatform({ dataDir: dir, env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
      try {
        for (const id of [a, b]) {
          const e = (await call(again, 'GET', `/api/agent-responses/${id}`)).json;
          expect(e).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
        }
        expect((await call(again, 'GET', `/api/agent-responses/${a}`)).json.output).toBe('partial');
      } finally {
        await again.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ollama configured by env serves other model names through the catch-all', async () => {
    const fake = await startFakeOpenAI({ reply: 'from ollama' });
    const dir = tempDir();
    const p = makePlatform({ dataDir: dir, env: { AGENT_DESK_OLLAMA_URL: fake.origin, AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const r = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x', { model: 'llama-3.3-70b-instruct' }), wait_execution: true } });
      expect(r.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'from ollama' });
      expect(fake.requests.at(-1)!.path).toBe('/v1/chat/completions');
      expect((await call(p, 'GET', '/api/settings/providers')).json.providers[0]).toMatchObject({ id: 'ollama', kind: 'ollama', base_url: `${fake.origin}/v1` });
    } finally {
      await p.close();
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('provider discovery and stalls', () => {
  it('detects an Ollama at the probe address in the background and routes other names to it', async () => {
    const { ProvidersService } = await import('../../src-main/platform/modules/providers/service.js');
    const fake = await startFakeOpenAI({ reply: 'hi' });
    const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      // /api/version is not served by the fake: the probe must fail quietly.
      const none = new ProvidersService({ db: p.db, config: { ...p.config, env: {} }, log: p.log, events: p.events }, p.services.settings, p.secrets, { ollamaProbeUrl: fake.origin });
      await none.detected;
      expect(() => none.resolve('qwen3-235b-a22b')).toThrow(/No provider is configured/);
      const http = await import('node:http');
      const ollama = http.createServer((req, res) => {
        res.writeHead(req.url === '/api/version' ? 200 : 404, { 'content-type': 'application/json' });
        res.end('{"version":"0.9.0"}');
      });
      await new Promise<void>((r) => ollama.listen(0, '127.0.0.1', () => r()));
      const url = `http://127.0.0.1:${(ollama.address() as import('node:net').AddressInfo).port}`;
      try {
        const found = new ProvidersService({ db: p.db, config: { ...p.config, env: {} }, log: p.log, events: p.events }, p.services.settings, p.secrets, { ollamaProbeUrl: url });
        await found.detected;
        expect(found.resolve('qwen3-235b-a22b').id).toBe('ollama');
        expect(found.view().providers).toEqual([expect.objectContaining({ id: 'ollama', source: 'auto', base_url: `${url}/v1` })]);
      } finally {
        await new Promise<void>((r) => ollama.close(() => r()));
      }
    } finally {
      await p.close();
      await fake.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('a provider that stalls mid-stream fails after the idle timeout with provider_timeout', async () => {
    const fake = await startFakeOpenAI({ fail: 'hang' });
    const p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S: '0.3' } });
    try {
      const r = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), wait_execution: true } });
      expect(r.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'provider_timeout' } });
      expect(r.json.responses[0].error.message).toMatch(/sent nothing for 300 ms; gave up\./);
    } finally {
      await p.close();
      await fake.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('a provider that accepts the connection but never answers fails with provider_timeout', async () => {
    const net = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const silent = net.createServer((sock) => {
      sockets.push(sock);
      sock.resume();
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(silent.address() as import('node:net').AddressInfo).port}/v1`;
    const p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: url, AGENT_DESK_OLLAMA_AUTODETECT: '0', AGENT_DESK_PROVIDER_IDLE_TIMEOUT_S: '0.3' } });
    try {
      const r = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), wait_execution: true } });
      expect(r.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'provider_timeout' } });
      expect(r.json.responses[0].error.message).toMatch(/did not answer within 300 ms/);
    } finally {
      await p.close();
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('the OpenAPI document describes the execution and settings routes', async () => {
    const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const r = await call(p, 'GET', '/api/openapi.json');
      expect(r.status).toBe(200);
      for (const path of ['/api/agents/{id}/execute', '/api/agent-responses/{id}', '/api/agent-responses/{id}/cancel', '/api/settings/providers', '/api/settings/providers/test']) {
        expect(Object.keys(r.json.paths)).toContain(path);
      }
    } finally {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });
});
