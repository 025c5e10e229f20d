import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, KEY, makePlatform } from '../api/helpers.js';
import { chatBody, parseSSE, poll } from '../execution/helpers.js';
import { listen, type RunningServer } from '../../src-main/platform/transports/http/server.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';

const REMOTE_KEY = 'remote-exec-key-91ab77';
const LOCAL_KEY = KEY;

/**
 * The "remote" is a second Agent Desk (its own data dir, key and loopback port) whose model is
 * the fake OpenAI-compatible server; the local Agent Desk forwards executions of remote agents.
 */
describe('remote platform: executions through the local API', () => {
  let fake: FakeServer;
  let remote: Platform;
  let remoteServer: RunningServer;
  let local: Platform;
  let localServer: RunningServer;
  let remoteChatId: number;

  const env = (url: string) => ({ AGENT_DESK_OPENAI_BASE_URL: url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' });

  beforeAll(async () => {
    fake = await startFakeOpenAI({ reply: 'Remote answer number one, streamed in several tokens.', delayMs: 2 });
    remote = makePlatform({ envApiKey: REMOTE_KEY, env: env(fake.url) });
    remoteServer = await listen(remote, { port: 0 });
    local = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    localServer = await listen(local, { port: 0 });
    const put = await call(local, 'PUT', '/api/settings/remote', { key: LOCAL_KEY, body: { base_url: remoteServer.url, api_key: REMOTE_KEY } });
    expect(put.json.status).toBe('online');
    const agents = await call(local, 'GET', '/api/agents?per_page=100', { key: LOCAL_KEY });
    remoteChatId = agents.json.data.find((a: any) => a.source === 'remote' && a.slug === 'remote-chat').id;
  });
  afterAll(async () => {
    await localServer.close();
    await remoteServer.close().catch(() => {});
    await fake.close();
  });

  const execute = (body: unknown, key = LOCAL_KEY) =>
    fetch(`${localServer.url}/api/agents/${remoteChatId}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('streams a remote execution through the local server, every event in order', async () => {
    const res = await execute(chatBody('Hello remote', { stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = parseSSE(await res.text());
    const last = events[events.length - 1];
    expect(last.status).toBe('completed');
    expect(last.output).toBe('');
    expect(typeof last.credits).toBe('number');
    const running = events.filter((e) => e.status === 'running');
    expect(running.length).toBeGreaterThan(2);
    expect(running.map((e) => e.output).join('')).toBe('Remote answer number one, streamed in several tokens.');
    for (const e of events) expect(e).not.toHaveProperty('input');
    // Stored locally: progress, sessions and credits work the same as for local agents.
    const stored = await call(local, 'GET', `/api/agent-responses/${last.id}`, { key: LOCAL_KEY });
    expect(stored.json).toMatchObject({ status: 'succeeded', output: 'Remote answer number one, streamed in several tokens.', template_id: remoteChatId, input: 'Hello remote' });
    expect(stored.json.root_id).toBe(stored.json.id);
    // The remote ran its own agent, once, with the message we sent.
    expect(fake.prompts().at(-1)?.at(-1)).toMatchObject({ role: 'user', content: 'Hello remote' });
  });

  it('continues a session by root_id: the remote receives the earlier turns', async () => {
    const first = await (await execute(chatBody('My name is Ada.', { wait_execution: true }))).json();
    const firstExec = first.responses[0];
    expect(firstExec.status).toBe('succeeded');
    const second = await (await execute(chatBody('What is my name?', { root_id: firstExec.id, wait_execution: true }))).json();
    expect(second.responses[0]).toMatchObject({ status: 'succeeded', root_id: firstExec.id });
    const prompt = fake.prompts().at(-1)!;
    expect(prompt.map((m: any) => m.content)).toEqual(expect.arrayContaining(['My name is Ada.', 'What is my name?']));
  });

  it('non-stream without wait answers at once and finishes in the background', async () => {
    const res = await execute(chatBody('Background please'));
    const body = await res.json();
    expect(body.template_id).toBe(String(remoteChatId));
    expect(body.responses[0].status).toBe('starting');
    const done = await poll(local, body.responses[0].id, (e) => e.status === 'succeeded', 10_000);
    expect(done.output).toContain('Remote answer');
  });

  it('sends local memories along only when the agent shares context', async () => {
    await call(local, 'POST', '/api/memories', { key: LOCAL_KEY, body: { memory: 'The zebra password is marmalade.' } });
    await (await execute(chatBody('What is the zebra password?', { wait_execution: true }))).json();
    expect(JSON.stringify(fake.prompts().at(-1))).not.toContain('marmalade');
    await call(local, 'PATCH', `/api/agents/${remoteChatId}`, { key: LOCAL_KEY, body: { share_context: true } });
    const shared = await (await execute(chatBody('What is the zebra password?', { wait_execution: true }))).json();
    expect(JSON.stringify(fake.prompts().at(-1))).toContain('marmalade');
    const stored = await call(local, 'GET', `/api/agent-responses/${shared.responses[0].id}`, { key: LOCAL_KEY });
    expect(stored.json.context.memories[0].memory).toContain('marmalade');
    await call(local, 'PATCH', `/api/agents/${remoteChatId}`, { key: LOCAL_KEY, body: { share_context: false } });
  });

  it('a wrong remote key fails the execution clearly: no 500, no key in any body', async () => {
    await call(local, 'PUT', '/api/settings/remote', { key: LOCAL_KEY, body: { api_key: 'definitely-wrong-key' } });
    try {
      const res = await execute(chatBody('Hi', { stream: true }));
      expect(res.status).toBe(200);
      const text = await res.text();
      const last = parseSSE(text).at(-1);
      expect(last.status).toBe('failed');
      expect(last.error.message).toMatch(/refused the API key/);
      expect(text).not.toContain('definitely-wrong-key');
      const stored = await call(local, 'GET', `/api/agent-responses/${last.id}`, { key: LOCAL_KEY });
      expect(stored.json.status).toBe('failed');
      expect(stored.text).not.toContain('definitely-wrong-key');
    } finally {
      await call(local, 'PUT', '/api/settings/remote', { key: LOCAL_KEY, body: { api_key: REMOTE_KEY } });
    }
  });

  it('imports a remote agent and runs it locally against a local model', async () => {
    const imported = await call(local, 'POST', `/api/agents/${remoteChatId}/import`, { key: LOCAL_KEY });
    expect(imported.status).toBe(201);
    // Without a local provider the copy fails clearly, never with invented output...
    const noModel = await call(local, 'POST', `/api/agents/${imported.json.id}/execute`, { key: LOCAL_KEY, body: chatBody('Hi', { wait_execution: true }) });
    expect(noModel.json.responses[0]).toMatchObject({ status: 'failed', error: { code: 'model_unavailable' } });
    // ...and with one configured it runs here.
    const put = await call(local, 'PUT', '/api/settings/providers', { key: LOCAL_KEY, body: { providers: [{ id: 'openai', kind: 'openai-compatible', base_url: fake.url, api_key: 'sk-fake' }] } });
    expect(put.status, put.text).toBe(200);
    const before = fake.requests.length;
    const run = await call(local, 'POST', `/api/agents/${imported.json.id}/execute`, { key: LOCAL_KEY, body: chatBody('Run locally', { wait_execution: true }) });
    expect(run.json.responses[0]).toMatchObject({ status: 'succeeded', output: 'Remote answer number one, streamed in several tokens.' });
    expect(fake.requests.length).toBe(before + 1); // one direct model call, no remote hop
  });

  it('the remote going down mid-stream fails the execution', async () => {
    fake.set({ delayMs: 40 });
    const res = await execute(chatBody('Long answer', { stream: true }));
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('data: ');
    await remoteServer.close();
    let text = new TextDecoder().decode(first.value);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const last = parseSSE(text).at(-1);
    expect(last.status).toBe('failed');
    expect(last.error.message).toMatch(/remote platform/i);
    const stored = await poll(local, last.id, (e) => e.status === 'failed', 5_000);
    expect(stored.error.code).toMatch(/^remote_/);
    const settings = await call(local, 'GET', '/api/settings/remote', { key: LOCAL_KEY });
    expect(settings.json.status).toBe('offline');
  });
});
