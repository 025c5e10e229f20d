/**
 * ext GET /api/agent-responses/{id}/stream over real HTTP on loopback: a client that disconnects
 * mid-answer and comes back, with and without Last-Event-ID, gets the whole text exactly once and
 * the final `completed` event. The fake provider writes a token only when the test lets it, so no
 * outcome depends on timing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, makePlatform } from '../api/helpers.js';
import { startFakeOpenAI, type FakeServer } from '../fixtures/fake-openai.js';
import { until } from '../fixtures/until.js';
import { listen, type Platform, type RunningServer } from '../../src-main/platform/platform.js';
import { createParser } from 'eventsource-parser';
import { CHAT, chatBody } from './helpers.js';
import { tokenGate } from '../fixtures/token-gate.js';

const TOKENS = Array.from({ length: 12 }, (_, i) => `w${i} `);
const WHOLE = TOKENS.join('');

interface Event {
  id: string | undefined;
  data: any;
}

/** An SSE connection whose events are collected as they arrive; `drop()` disconnects like a closed tab. */
async function connect(url: string, init: { method?: string; body?: unknown; lastEventId?: string } = {}) {
  const ctl = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${KEY}`, accept: 'text/event-stream' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.lastEventId !== undefined) headers['last-event-id'] = init.lastEventId;
  const res = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body), signal: ctl.signal });
  const events: Event[] = [];
  let raw = '';
  let ended = false;
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, data: JSON.parse(e.data) }) });
  const reading = (async () => {
    const dec = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const text = dec.decode(chunk, { stream: true });
        raw += text;
        parser.feed(text);
      }
      ended = true;
    } catch {
      // dropped by the test
    }
  })();
  return {
    res,
    events,
    raw: () => raw,
    ended: () => ended,
    text: () => events.filter((e) => e.data.status === 'running').map((e) => e.data.output).join(''),
    last: () => events.at(-1),
    async drop() {
      ctl.abort();
      await reading;
    },
    done: () => reading,
  };
}

describe('re-attaching to a running execution (GET /api/agent-responses/{id}/stream)', () => {
  let fake: FakeServer;
  let p: Platform & { dir: string };
  let server: RunningServer;
  let gate = tokenGate();
  const url = (path: string) => `${server.url}${path}`;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ tokens: TOKENS, gate: (i) => gate.gate(i) });
    p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    server = await listen(p, { port: 0 });
  });
  afterAll(async () => {
    gate.allow(Infinity);
    await server?.close();
    await fake?.close();
    if (p) fs.rmSync(p.dir, { recursive: true, force: true });
  });

  /** Starts an execution with the execute stream and returns that connection once `n` tokens have arrived. */
  async function started(n: number) {
    gate = tokenGate();
    gate.allow(n);
    const first = await connect(url(`/api/agents/${CHAT}/execute`), { method: 'POST', body: chatBody('Count', { stream: true }) });
    await until('the first tokens', () => first.text() === TOKENS.slice(0, n).join(''));
    return { first, id: first.events[0].data.id as number };
  }

  it('after a drop, Last-Event-ID resumes where the client was: the rest once, then completed', async () => {
    const { first, id } = await started(3);
    // The execute stream keeps the spec's framing: no id lines.
    expect(first.raw()).not.toMatch(/^id:/m);
    await first.drop();

    // Re-attached without Last-Event-ID: the whole output so far in the first event, with its id.
    gate.allow(5);
    const second = await connect(url(`/api/agent-responses/${id}/stream`));
    expect(second.res.status).toBe(200);
    expect(second.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await until('the fifth token', () => second.text() === TOKENS.slice(0, 5).join(''));
    expect(second.events[0].data).toMatchObject({ id, status: 'running', credits: null, error: null });
    expect(second.events[0].data.output.startsWith(TOKENS.slice(0, 3).join(''))).toBe(true);
    expect(second.raw()).toMatch(/^id: \d+\ndata: \{/);
    // Each id is the length of the text the client holds once it has that event.
    let held = 0;
    for (const e of second.events) {
      held += e.data.output.length;
      expect(Number(e.id)).toBe(held);
    }
    const lastId = second.last()!.id!;
    await second.drop();

    gate.allow(8);
    await until('the eighth token upstream', async () => (await (await fetch(url(`/api/agent-responses/${id}`), { headers: { authorization: `Bearer ${KEY}` } })).json()).output === TOKENS.slice(0, 8).join(''));
    const third = await connect(url(`/api/agent-responses/${id}/stream`), { lastEventId: lastId });
    await until('the text after the last event held', () => third.text() === TOKENS.slice(5, 8).join(''));
    gate.allow(TOKENS.length);
    await until('the end of the stream', () => third.ended());
    expect(second.text() + third.text()).toBe(WHOLE);
    expect(third.last()!.data).toMatchObject({ id, status: 'completed', output: '', error: null });
    expect(typeof third.last()!.data.credits).toBe('number');
    expect(third.last()!.id).toBe(String(WHOLE.length));
  });

  it('without Last-Event-ID, a client that discards what it had gets the whole text once, then completed', async () => {
    const { first, id } = await started(4);
    await first.drop();
    gate.allow(6);
    const again = await connect(url(`/api/agent-responses/${id}/stream`));
    await until('the sixth token', () => again.text() === TOKENS.slice(0, 6).join(''));
    gate.allow(TOKENS.length);
    await until('the end of the stream', () => again.ended());
    expect(again.text()).toBe(WHOLE);
    expect(again.events.filter((e) => e.data.status !== 'running').map((e) => e.data.status)).toEqual(['completed']);
  });

  it('the characters an execute-stream client holds are a Last-Event-ID it can resume from', async () => {
    const { first, id } = await started(2);
    const held = first.text();
    await first.drop();
    gate.allow(TOKENS.length);
    const rest = await connect(url(`/api/agent-responses/${id}/stream`), { lastEventId: String(held.length) });
    await rest.done();
    expect(held + rest.text()).toBe(WHOLE);
    expect(rest.last()!.data.status).toBe('completed');
  });

  it('a finished execution answers at once: the text after Last-Event-ID (or all of it), then its final event', async () => {
    const { first, id } = await started(TOKENS.length);
    await first.done();
    const whole = await connect(url(`/api/agent-responses/${id}/stream`));
    await whole.done();
    expect(whole.events.map((e) => e.data.status)).toEqual(['running', 'completed']);
    expect(whole.text()).toBe(WHOLE);
    const tail = await connect(url(`/api/agent-responses/${id}/stream`), { lastEventId: '4' });
    await tail.done();
    expect(tail.text()).toBe(WHOLE.slice(4));
    expect(tail.last()!.data).toMatchObject({ status: 'completed', output: '' });
    const nothing = await connect(url(`/api/agent-responses/${id}/stream`), { lastEventId: String(WHOLE.length) });
    await nothing.done();
    expect(nothing.events.map((e) => e.data.status)).toEqual(['completed']);
  });

  it('refuses a Last-Event-ID that is not an id of the stream (422), and an unknown execution (404)', async () => {
    const { first, id } = await started(TOKENS.length);
    await first.done();
    for (const bad of ['abc', '-1', '1.5', String(WHOLE.length + 1)]) {
      const r = await fetch(url(`/api/agent-responses/${id}/stream`), { headers: { authorization: `Bearer ${KEY}`, 'last-event-id': bad } });
      expect(r.status, bad).toBe(422);
      const body = await r.json();
      expect(body.message).toMatch(/Last-Event-ID/);
      expect(Object.keys(body.errors)).toEqual(['Last-Event-ID']);
    }
    const missing = await fetch(url('/api/agent-responses/999999/stream'), { headers: { authorization: `Bearer ${KEY}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Agent response not found' });
  });

  it('a canceled execution ends its re-attached stream with `canceled`, the partial text kept', async () => {
    const { first, id } = await started(3);
    await first.drop();
    const follower = await connect(url(`/api/agent-responses/${id}/stream`));
    await until('the text so far', () => follower.text() === TOKENS.slice(0, 3).join(''));
    const r = await fetch(url(`/api/agent-responses/${id}/cancel`), { method: 'POST', headers: { authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(200);
    await follower.done();
    expect(follower.last()!.data).toMatchObject({ status: 'canceled', error: { code: 'canceled' } });
    expect(follower.text()).toBe(TOKENS.slice(0, 3).join(''));
  });
});
