import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { makePlatform } from '../api/helpers.js';
import type { GenerateRequest, ModelProvider, ProviderEvent } from '../../src-main/platform/engine/providers/types.js';
import { parseExecuteBody } from '../../src-main/platform/contract/executions.js';
import { until } from '../fixtures/until.js';

/** An in-memory provider, as the remote platform's provider plugs in. */
function scripted(id: string, chunks: string[]): ModelProvider & { seen: GenerateRequest[] } {
  const seen: GenerateRequest[] = [];
  return {
    id,
    seen,
    async *stream(req): AsyncIterable<ProviderEvent> {
      seen.push(req);
      for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 2));
        yield { type: 'text', text: c };
      }
      yield { type: 'usage', inputTokens: 1000, outputTokens: 1000 };
    },
  };
}

describe('executions service (the interface the OpenAI-compatible API and the remote platform call)', () => {
  const p = makePlatform({ env: { AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
  afterAll(async () => {
    await p.close();
    fs.rmSync(p.dir, { recursive: true, force: true });
  });
  const principal = { userId: 1, via: 'bridge' as const };
  const raw = { temperature: '1', model: 'gpt-5', tools: 'no-tools', messages: [{ role: 'user', content: 'hi' }] };
  const body = parseExecuteBody(raw);

  it('start() with an injected provider and per-call overrides yields the stream events, then the finished event fires', async () => {
    const provider = scripted('injected', ['a', 'b', 'c']);
    const finished: any[] = [];
    p.events.on('execution.finished', (e) => finished.push(e));
    const { execution, events } = await p.services.executions.start(principal, 1, body, { provider, overrides: { maxTokens: 7, stop: ['END'], temperature: 0.2 } });
    expect(execution).toMatchObject({ status: 'starting', output: '', input: 'hi', credits: 0.01, template_id: 1 });
    const seen: any[] = [];
    for await (const e of events) seen.push(e);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', output: '', error: null, credits: 0.018 });
    expect(seen.slice(0, -1).map((e) => e.output).join('')).toBe('abc');
    expect(seen.every((e) => !('input' in e))).toBe(true);
    expect(provider.seen[0]).toMatchObject({ model: 'gpt-5', maxTokens: 7, stop: ['END'], temperature: 0.2 });
    const stored = p.services.executions.get(1, execution.id);
    expect(stored).toMatchObject({ status: 'succeeded', output: 'abc', credits: 0.018 });
    expect(finished).toEqual([{ type: 'execution.succeeded', userId: 1, agentId: 1, execution: stored }]);
  });

  it('registered providers route by their own patterns; events can be read late without losing text', async () => {
    const provider = scripted('remote', ['x', 'y']);
    const off = p.services.providers.register(provider, { routes: ['gpt-5'] });
    try {
      const { execution, events } = await p.services.executions.start(principal, 1, body);
      const done = await p.services.executions.waitFor(1, execution.id, 5000);
      expect(done).toMatchObject({ status: 'succeeded', output: 'xy' });
      const late: any[] = [];
      for await (const e of events) late.push(e);
      expect(late.slice(0, -1).map((e) => e.output).join('')).toBe('xy');
      expect(late.at(-1).status).toBe('completed');
      expect((await p.services.providers.view()).providers.some((v) => v.id === 'remote' && v.source === 'registered')).toBe(true);
    } finally {
      off();
    }
    expect(() => p.services.providers.resolve('gpt-5')).toThrow(/No provider is configured for model gpt-5/);
  });

  it('streamed text is written to the database while it streams (batched), so a crash keeps it', async () => {
    // The test holds the stream after 5 chunks: the row must show them (flushed by the batch timer)
    // while the run is still going. No sleep decides the outcome: it waits for conditions.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const provider = scripted('slow', []);
    (provider as any).stream = async function* (req: GenerateRequest) {
      for (let i = 0; i < 30; i++) {
        if (i === 5) await held;
        if (req.signal.aborted) return;
        yield { type: 'text', text: `c${i} ` } as ProviderEvent;
      }
    };
    const { execution } = await p.services.executions.start(principal, 1, body, { provider });
    const read = p.db.prepare('SELECT status, output FROM executions WHERE id = ?');
    const row = () => read.get(execution.id) as { status: string; output: string };
    await until('the streamed text in the database', () => row().output === 'c0 c1 c2 c3 c4 ', 10_000, 10);
    expect(row().status).toBe('running');
    release();
    const done = await p.services.executions.waitFor(1, execution.id, 10_000);
    expect(done.output.split(' ').filter(Boolean)).toHaveLength(30);
  });

  it('waitFor answers the current state when the time is up', async () => {
    const hang: ModelProvider = {
      id: 'hang',
      async *stream(req) {
        await new Promise<void>((r) => req.signal.addEventListener('abort', () => r()));
        if (req.signal.aborted) throw new DOMException('aborted', 'AbortError');
        yield { type: 'text', text: 'never' };
      },
    };
    const { execution } = await p.services.executions.start(principal, 1, body, { provider: hang });
    const t0 = Date.now();
    const now = await p.services.executions.waitFor(1, execution.id, 200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(now.status).toBe('running');
    const canceled = await p.services.executions.cancel(1, execution.id);
    expect(canceled.status).toBe('canceled');
  });

  it('validation errors are thrown before anything is stored', async () => {
    const before = (p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;
    // The body's own rules when it is parsed, the agent's rules (a chat needs messages) in start().
    expect(() => parseExecuteBody({ ...raw, messages: [{ role: 'system', content: 'x' }] })).toThrow(expect.objectContaining({ status: 422 }));
    await expect(p.services.executions.start(principal, 1, parseExecuteBody({ ...raw, messages: [] }))).rejects.toMatchObject({ status: 422, errors: { messages: ['The messages field is required.'] } });
    await expect(p.services.executions.start(principal, 999, body)).rejects.toMatchObject({ status: 404, message: 'Agent not found' });
    expect((p.db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n).toBe(before);
  });
});
