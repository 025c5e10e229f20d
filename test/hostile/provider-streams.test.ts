/**
 * Hostile model providers against the engine's stream readers, on loopback fakes: keep-alives
 * that never carry text, a trickle that never ends, tool-call arguments without end, too many
 * calls, an event without end. Time is a manual clock: no test waits on the wall.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endless, startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { startFakeAnthropic, type FakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startRecordingServer } from '../fixtures/fake-http.js';
import { ManualClock } from '../fixtures/manual-clock.js';
import { limit, until } from '../fixtures/until.js';
import { tempDir } from '../api/helpers.js';
import { writeTinyLlama } from '../fixtures/gguf-writer.js';
import { OpenAICompatibleProvider } from '../../src-main/platform/engine/providers/openai-compatible.js';
import { AnthropicProvider } from '../../src-main/platform/engine/providers/anthropic.js';
import { GgufProvider } from '../../src-main/platform/engine/providers/gguf.js';
import type { ModelProvider, ProviderEvent } from '../../src-main/platform/engine/providers/types.js';
import type { StreamLimits } from '../../src-main/platform/engine/providers/stream-limits.js';

const MB = 1024 * 1024;

/** Reads a stream in the background; `texts` grows as text arrives, `settled` once it ends. */
function consume(p: ModelProvider, opts: { model?: string; maxTokens?: number; signal?: AbortSignal } = {}) {
  const out = { texts: [] as string[], events: [] as ProviderEvent[], error: null as any, settled: false };
  const run = (async () => {
    try {
      for await (const ev of p.stream({ model: opts.model ?? 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], maxTokens: opts.maxTokens, signal: opts.signal ?? new AbortController().signal })) {
        out.events.push(ev);
        if (ev.type === 'text') out.texts.push(ev.text);
      }
    } catch (err) {
      out.error = err;
    } finally {
      out.settled = true;
    }
  })();
  return Object.assign(out, { done: () => until('the stream to end', () => out.settled).then(() => run) });
}

const openai = (url: string, limits: StreamLimits) => new OpenAICompatibleProvider({ id: 'hostile', baseUrl: url, label: 'the test provider', limits });
const anthropic = (url: string, limits: StreamLimits) => new AnthropicProvider({ apiKey: 'k', baseUrl: url, limits });

/** Lets the test hand out tokens one at a time. */
function gate() {
  const waiting: (() => void)[] = [];
  let credit = 0;
  return {
    wait: () => (credit > 0 ? (credit--, undefined) : new Promise<void>((r) => waiting.push(r))),
    release() {
      const w = waiting.shift();
      if (w) w();
      else credit++;
    },
  };
}

describe('OpenAI-compatible streams under a hostile provider', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake.close());

  for (const kind of ['comment', 'empty'] as const) {
    it(`a provider sending only keep-alive ${kind === 'comment' ? 'comments' : 'empty deltas'} is ended by the idle timer`, async () => {
      fake.set({ keepAlive: { everyMs: 2, kind } });
      const clock = new ManualClock();
      const before = fake.sent.keepAlives;
      const s = consume(openai(fake.url, { idleMs: 5_000, clock }));
      await until('keep-alives flowing', () => fake.sent.keepAlives - before >= 5);
      // The keep-alives went on all along; only time without text counts.
      clock.advance(5_000);
      await s.done();
      expect(s.error?.code).toBe('provider_timeout');
      expect(s.error?.message).toMatch(/sent only keep-alive messages and no text for 5 s; gave up\./);
      expect(s.texts).toEqual([]);
      await until('the fake to see the connection closed', () => fake.sent.closedByClient > 0);
      fake.set({ keepAlive: null });
    });
  }

  it('an overall deadline ends a trickling provider that keeps the idle timer happy', async () => {
    const g = gate();
    const raw = await startRecordingServer(async ({ res }) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let i = 0; !res.destroyed; i++) {
        await g.wait();
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `t${i} ` }, finish_reason: null }] })}\n\n`);
      }
    });
    try {
      const clock = new ManualClock();
      const s = consume(openai(`${raw.origin}/v1`, { idleMs: 5_000, deadlineMs: 12_000, clock }));
      // Each token comes 4 s after the last: never idle for 5 s, but 12 s in all is the limit.
      for (let k = 1; k <= 3; k++) {
        g.release();
        await until(`token ${k}`, () => s.texts.length >= k);
        clock.advance(4_000);
      }
      await s.done();
      expect(s.texts).toEqual(['t0 ', 't1 ', 't2 ']);
      expect(s.error?.code).toBe('provider_timeout');
      expect(s.error?.message).toMatch(/^The test provider did not finish its answer within 12 s/);
    } finally {
      g.release();
      await raw.close();
    }
  });

  it('reasoning deltas are progress: a model that thinks longer than the idle limit is not cut off', async () => {
    const g = gate();
    const raw = await startRecordingServer(async ({ res }) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (let i = 0; i < 3; i++) {
        await g.wait();
        res.write(frame(i % 2 ? { reasoning: `step ${i}` } : { reasoning_content: `step ${i}` }));
      }
      await g.wait();
      res.end(frame({ content: 'Done.' }, 'stop') + 'data: [DONE]\n\n');
    });
    try {
      const clock = new ManualClock();
      const s = consume(openai(`${raw.origin}/v1`, { idleMs: 5_000, clock }));
      // Three reasoning steps 4 s apart: 12 s without text, never 5 s without the model at work.
      for (let k = 0; k < 3; k++) {
        const reads = clock.reads;
        g.release();
        // The reader looks at the clock as it handles a chunk (all in one turn of the loop).
        await until(`reasoning step ${k} read`, () => clock.reads > reads);
        clock.advance(4_000);
      }
      g.release();
      await s.done();
      expect(s.error).toBeNull();
      expect(s.texts).toEqual(['Done.']);
    } finally {
      await raw.close();
    }
  });

  it('endless tool-call arguments end the stream at the cap, and the connection is closed', async () => {
    // 64 MB is only the fake's own bound (a reader without a cap would take it all and succeed).
    fake.set({ endlessToolArguments: { maxBytes: 64 * MB } });
    const before = fake.sent.toolArgumentBytes;
    const s = consume(openai(fake.url, { maxToolBytes: 256 * 1024 }));
    await s.done();
    fake.set({ endlessToolArguments: null });
    expect(s.error?.code).toBe('tool_call_too_long');
    expect(s.error?.message).toMatch(/sent more than 256 KB of tool-call arguments in one answer/);
    expect(s.events.some((e) => e.type === 'tool_calls')).toBe(false);
    await until('the fake to see the connection closed', () => fake.sent.closedByClient > 0);
    // What the fake could write before the close is the cap plus socket buffers, far from its 64 MB.
    expect(fake.sent.toolArgumentBytes - before).toBeLessThan(32 * MB);
  });

  it('an answer with more tool calls than the cap ends the stream', async () => {
    fake.set({ toolCalls: () => Array.from({ length: 20 }, (_, i) => ({ name: `f${i}`, arguments: '{}' })) });
    const s = consume(openai(fake.url, { maxToolCalls: 10 }));
    await s.done();
    fake.set({ toolCalls: undefined });
    expect(s.error?.code).toBe('tool_limit');
    expect(s.error?.message).toMatch(/more than 10 tool calls in one answer/);
  });

  it('text past the cap ends the stream with output_too_long', async () => {
    fake.set({ tokens: Array.from({ length: 64 }, () => 'y'.repeat(16 * 1024)) });
    const s = consume(openai(fake.url, { maxTextBytes: 256 * 1024 }));
    await s.done();
    fake.set({ tokens: undefined });
    expect(s.error?.code).toBe('output_too_long');
    expect(s.texts.join('').length).toBeLessThanOrEqual(256 * 1024);
  });

  it('one stream event without end is capped, not buffered', async () => {
    let written = 0;
    let closed = false;
    const raw = await startRecordingServer(async ({ res }) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const piece = 'z'.repeat(64 * 1024);
      res.write('data: {"choices":[{"delta":{"content":"');
      // One data line that never ends (the fake stops at 64 MB, a bound of its own).
      await endless(res, () => ((written += piece.length), piece), { more: () => written < 64 * MB, onClose: () => (closed = true) });
      if (!res.destroyed) res.end('"}}]}\n\ndata: [DONE]\n\n');
    });
    try {
      const s = consume(openai(`${raw.origin}/v1`, { maxEventBytes: 512 * 1024 }));
      await s.done();
      expect(s.error?.message).toMatch(/sent one stream event larger than 512 KB/);
      await until('the connection closed', () => closed);
      expect(written).toBeLessThan(32 * MB);
    } finally {
      await raw.close();
    }
  });
});

describe('Anthropic streams under a hostile provider', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(() => fake.close());

  it('a provider sending only pings is ended by the idle timer', async () => {
    fake.set({ keepAlive: { everyMs: 2 } });
    const clock = new ManualClock();
    const s = consume(anthropic(fake.url, { idleMs: 5_000, clock }), { model: 'claude-sonnet-4-5' });
    await until('pings flowing', () => fake.sent.keepAlives >= 5);
    clock.advance(5_000);
    await s.done();
    fake.set({ keepAlive: null });
    expect(s.error?.code).toBe('provider_timeout');
    expect(s.error?.message).toMatch(/^Anthropic sent only keep-alive messages and no text for 5 s/);
  });

  it('endless tool input ends the stream at the cap', async () => {
    fake.set({ endlessToolInput: { maxBytes: 64 * MB } });
    const s = consume(anthropic(fake.url, { maxToolBytes: 256 * 1024 }), { model: 'claude-sonnet-4-5' });
    await s.done();
    fake.set({ endlessToolInput: null });
    expect(s.error?.code).toBe('tool_call_too_long');
    await until('the fake to see the connection closed', () => fake.sent.closedByClient > 0);
    expect(fake.sent.toolArgumentBytes).toBeLessThan(32 * MB);
  });
});

describe('the in-process GGUF engine under the deadline', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('agent-desk-hostile-gguf-');
    writeTinyLlama(`${dir}/tiny-random.gguf`, { seed: 11 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('an overall deadline ends a local generation', { timeout: limit(120_000) }, async () => {
    const clock = new ManualClock();
    const p = new GgufProvider({ id: 'local', modelsDir: dir, contextSize: 512, threads: 1, limits: { deadlineMs: 30_000, clock } });
    const it = p.stream({ model: 'tiny-random.gguf', messages: [{ role: 'user', content: 'hi' }], maxTokens: 400, signal: new AbortController().signal })[Symbol.asyncIterator]();
    // The first event arrives once the generation runs (its deadline armed); the reader holds the rest.
    const first = await it.next();
    expect(first.done).toBe(false);
    clock.advance(30_000);
    // Whatever the engine has produced meanwhile, the deadline has passed: the answer is not complete.
    const err = await (async () => {
      try {
        for (let r = await it.next(); !r.done; r = await it.next());
      } catch (e) {
        return e as any;
      }
      return null;
    })();
    expect(err?.code).toBe('provider_timeout');
    expect(err?.message).toMatch(/^The local model tiny-random\.gguf did not finish its answer within 30 s/);
  });
});
