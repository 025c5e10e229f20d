/**
 * No charge for work never done: an execution that ends before the model was called has
 * `credits: 0` (stored, streamed, in webhooks' data); once the model was called the formula applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT, call, chatBody, parseSSE, withFake } from './helpers.js';
import { CREDITS, executionCredits } from '../../src-main/platform/kernel/credits.js';
import { parseExecuteBody } from '../../src-main/platform/contract/executions.js';

describe('credits of executions that never reached the model', () => {
  let env: Awaited<ReturnType<typeof withFake>>;
  beforeAll(async () => {
    env = await withFake({ reply: 'one two three', delayMs: 2 });
  });
  afterAll(async () => env?.close());

  const waitExec = async (agentId: number, body: Record<string, unknown>) => (await call(env.p, 'POST', `/api/agents/${agentId}/execute`, { body: { ...body, wait_execution: true } })).json.responses[0];
  const stored = async (id: number) => (await call(env.p, 'GET', `/api/agent-responses/${id}`)).json;

  it('the base shows at starting (spec: "small credits")', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('hi') });
    expect(r.json.responses[0]).toMatchObject({ status: 'starting', credits: CREDITS.executionBase });
  });

  it('model_unavailable ends with 0, in the stream and stored', async () => {
    const r = await call(env.p, 'POST', `/api/agents/${CHAT}/execute`, { body: chatBody('x', { model: 'claude-sonnet-4-5', stream: true }) });
    const last = parseSSE(r.text).at(-1);
    expect(last).toMatchObject({ status: 'failed', error: { code: 'model_unavailable' }, credits: 0 });
    expect(await stored(last.id)).toMatchObject({ status: 'failed', credits: 0 });
  });

  it('tool_unavailable and unsupported end with 0', async () => {
    expect(await waitExec(CHAT, chatBody('x', { tools: 'internet' }))).toMatchObject({ status: 'failed', error: { code: 'tool_unavailable' }, credits: 0 });
    const video = await call(env.p, 'POST', '/api/agents', { body: { template_id: 'video-script' } });
    const id = video.json.id as number;
    const answers = Object.fromEntries((video.json.questions as any[]).map((q) => [q.name, q.options?.[0] ?? 'a cat video']));
    expect(await waitExec(id, { answers })).toMatchObject({ status: 'failed', error: { code: 'unsupported' }, credits: 0 });
  });

  it('canceled before the model was called ends with 0', async () => {
    const { execution } = await env.p.services.executions.start({ userId: 1, via: 'bridge' }, CHAT, parseExecuteBody(chatBody('cancel me at once')));
    const canceled = await env.p.services.executions.cancel(1, execution.id);
    expect(canceled).toMatchObject({ status: 'canceled', credits: 0 });
    expect(env.fake.prompts().some((m) => JSON.stringify(m).includes('cancel me at once'))).toBe(false);
  });

  it('once the model was called the formula applies, also when it then fails', async () => {
    env.fake.set({ fail: 'status', failStatus: 500 });
    try {
      expect(await waitExec(CHAT, chatBody('x'))).toMatchObject({ status: 'failed', error: { code: 'provider_error' }, credits: executionCredits(0, 0) });
    } finally {
      env.fake.set({ fail: null });
    }
    const ok = await waitExec(CHAT, chatBody('x'));
    expect(ok.status).toBe('succeeded');
    expect(ok.credits).toBeGreaterThan(CREDITS.executionBase);
  });

  it('a restart fails unfinished executions: 0 if never running, the formula if the model was called', async () => {
    const now = Date.now() * 1000;
    const ins = env.p.db.prepare("INSERT INTO executions(agent_id, user_id, root_id, status, input, output, credits, provider, created_at, updated_at) VALUES (1, 1, NULL, ?, 'q', ?, 0.01, ?, ?, ?)");
    const starting = Number(ins.run('starting', '', null, now, now).lastInsertRowid);
    const running = Number(ins.run('running', 'some partial text', 'openai', now, now).lastInsertRowid);
    expect(env.p.services.executions.recover()).toBe(2);
    expect(await stored(starting)).toMatchObject({ status: 'failed', credits: 0 });
    const r = await stored(running);
    expect(r.status).toBe('failed');
    expect(r.credits).toBeGreaterThan(CREDITS.executionBase);
  });
});
