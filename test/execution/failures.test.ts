import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, parseSSE, poll, withFake } from './helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import { KEY, makePlatform } from '../api/helpers.js';
import fs from 'node:fs';

describe('execution failures, cancel, disconnect', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  let server: RunningServer;
  const finished: any[] = [];
  beforeAll(async () => {
    env = await withFake({ reply: 'one two three four five six seven eight', delayMs: 5 });
    env.p.events.on('execution.finished', (e) => finished.push(e));
    server = await listen(env.p, { port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await env.close();
  });

  const exec = (body: unknown) => call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body });

  it('a provider answering 500 fails the execution with its message; the stream ends on failed; no 500 to the client', async () => {
    env.fake.set({ fail: 'status', failStatus: 500, failMessage: 'The fake model is down.' });
    try {
      const r = await exec(chatBody('x', { stream: true }));
      expect(r.status).toBe(200);
      const events = parseSSE(r.text);
      const last = events.at(-1);
      expect(last.status).toBe('failed');
      expect(last.error.code).toBe('provider_error');
      expect(last.error.message).toContain('500');
      expect(last.error.message).toContain('The fake model is down.');
      expect(typeof last.credits).toBe('number');
      const stored = await call(env.p, 'GET', `/api/agent-responses/${last.id}`);
      expect(stored.json).toMatchObject({ status: 'failed', error: last.error });
      const ev = finished.find((f) => f.execution.id === last.id);
      expect(ev).toMatchObject({ type: 'execution.failed', userId: 1, agentId: CHAT });
      expect(ev.execution).toMatchObject({ id: last.id, status: 'failed', input: 'x' });
    } finally {
      env.fake.set({ fail: null });
    }
  });

  it('a stream broken mid-answer fails with the text so far kept', async () => {
    env.fake.set({ fail: 'break', breakAfter: 3 });
    try {
      const r = await exec({ ...chatBody('x'), wait_execution: true });
      const e = r.json.responses[0];
      expect(e.status).toBe('failed');
      expect(e.error.code).toBe('provider_error');
      expect(e.error.message).toMatch(/broke off|closed before/);
      expect(e.output).toBe('one two three');
      expect(e.credits).toBeGreaterThan(0.01); // the text produced before the break is charged
    } finally {
      env.fake.set({ fail: null });
    }
  });

  it('an unreachable provider fails with provider_unreachable', async () => {
    const p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const r = await call(p, 'POST', `/api/agents/${CHAT}/execute`, { body: { ...chatBody('x'), wait_execution: true } });
      expect(r.status).toBe(200);
      expect(r.json.responses[0].status).toBe('failed');
      expect(r.json.responses[0].error).toMatchObject({ code: 'provider_unreachable' });
      expect(r.json.responses[0].error.message).toContain('127.0.0.1:9');
    } finally {
      await p.close();
      fs.rmSync(p.dir, { recursive: true, force: true });
    }
  });

  it('model_unavailable with a how-to message; never an invented answer', async () => {
    const r = await exec({ ...chatBody('x', { model: 'claude-sonnet-4-5' }), wait_execution: true });
    const e = r.json.responses[0];
    expect(e.status).toBe('failed');
    expect(e.output).toBe('');
    expect(e.error).toEqual({
      code: 'model_unavailable',
      message: 'No provider is configured for model claude-sonnet-4-5. Add one in Settings → Providers, or set AGENT_DESK_ANTHROPIC_API_KEY.',
    });
  });

  it('cancel stops a hanging provider: canceled, and a second cancel is idempotent', async () => {
    env.fake.set({ fail: 'hang' });
    try {
      const r = await exec(chatBody('x'));
      const id = r.json.responses[0].id;
      await poll(env.p, id, (e) => e.status === 'running');
      const c = await call(env.p, 'POST', `/api/agent-responses/${id}/cancel`);
      expect(c.status).toBe(200);
      expect(c.json).toMatchObject({ id, status: 'canceled', error: { code: 'canceled' } });
      expect((await call(env.p, 'POST', `/api/agent-responses/${id}/cancel`)).json.status).toBe('canceled');
      expect(finished.some((f) => f.execution.id === id)).toBe(false);
    } finally {
      env.fake.set({ fail: null });
    }
  });

  it('cancel of a finished execution is 409', async () => {
    const r = await exec({ ...chatBody('x'), wait_execution: true });
    const c = await call(env.p, 'POST', `/api/agent-responses/${r.json.responses[0].id}/cancel`);
    expect(c.status).toBe(409);
    expect(c.json.message).toMatch(/already/);
  });

  it('a client that disconnects mid-stream over real HTTP loses nothing: the execution succeeds and is stored', async () => {
    env.fake.set({ reply: Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), delayMs: 10 });
    try {
      const ac = new AbortController();
      const res = await fetch(`${server.url}/api/agents/${CHAT}/execute`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody('x', { stream: true })),
        signal: ac.signal,
      });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.getReader();
      let text = '';
      while (!/"output":"[^"]+"/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      const id = JSON.parse(text.split('\n')[0].slice(6)).id;
      ac.abort();
      await reader.cancel().catch(() => {});
      const done = await poll(env.p, id, (e) => e.status !== 'running' && e.status !== 'starting', 10_000);
      expect(done.status).toBe('succeeded');
      expect(done.output.split(' ')).toHaveLength(60);
      expect(finished.find((f) => f.execution.id === id)?.type).toBe('execution.succeeded');
    } finally {
      env.fake.set({ reply: 'one two three four five six seven eight', delayMs: 5 });
    }
  });

  it('the stream over real HTTP has the anti-buffering headers', async () => {
    const res = await fetch(`${server.url}/api/agents/${CHAT}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('x', { stream: true })),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('connection')).toBe('keep-alive');
    const events = parseSSE(await res.text());
    expect(events.at(-1).status).toBe('completed');
    expect(events.slice(0, -1).map((e) => e.output).join('')).toBe('one two three four five six seven eight');
  });
});
