// @vitest-environment jsdom
/**
 * Following an answer over the re-attach stream: a stream that breaks before the last event is
 * re-attached after the characters held (Last-Event-ID), so no text shows twice; the first event
 * of a stream without one replaces what is shown; the platform refusing (404) ends it at once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Ev = { id: number; status: string; output: string; error: null; credits: number | null; root_id: number; created_at: string; updated_at: string; template_id: number };
const ev = (status: string, output: string): Ev => ({ id: 9, status, output, error: null, credits: status === 'completed' ? 0.02 : null, root_id: 9, created_at: 'x', updated_at: 'x', template_id: 1 });

/** Each attach call plays the next script: events with their ids, then the end (a last event or a broken stream). */
const scripts: { events: [Ev, string][]; error?: Error }[] = [];
const asked: (string | undefined)[] = [];

class FakeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

vi.mock('../../src-renderer/api', () => ({
  ApiError: FakeApiError,
  isAbort: (e: unknown) => e instanceof DOMException && e.name === 'AbortError',
  ops: { streamAgentResponse: { method: 'get', path: '/agent-responses/{id}/stream' } },
  api: {
    async stream(_op: unknown, input: { headers?: Record<string, string> }, onEvent: (e: Ev, id?: string) => void) {
      asked.push(input.headers?.['last-event-id']);
      const s = scripts.shift()!;
      let last: Ev | null = null;
      for (const [e, id] of s.events) {
        onEvent(e, id);
        last = e;
      }
      if (s.error) throw s.error;
      return last;
    },
  },
}));

const { follow, RETRY_MS } = await import('../../src-renderer/stores/chat-streams');

beforeEach(() => {
  vi.useFakeTimers();
  scripts.length = 0;
  asked.length = 0;
});
afterEach(() => vi.useRealTimers());

describe('following an answer', () => {
  it('re-attaches after a broken stream with the characters held, and shows no text twice', async () => {
    // The execute stream showed "Hello" (5 characters) and broke; the re-attached one breaks too.
    scripts.push({ events: [[ev('running', ', wor'), '10']] });
    scripts.push({ events: [[ev('running', 'ld!'), '13'], [ev('completed', ''), '13']] });
    let shown = 'Hello';
    const seen: boolean[] = [];
    const done = follow(9, 5, (e, replace) => {
      seen.push(replace);
      shown = replace ? e.output : shown + e.output;
    }, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(RETRY_MS[0]);
    const last = await done;
    expect(asked).toEqual(['5', '10']);
    expect(seen.every((r) => r === false)).toBe(true);
    expect(last?.status).toBe('completed');
    expect(shown).toBe('Hello, world!');
  });

  it('without characters held, the first event replaces what is shown (the whole text so far)', async () => {
    scripts.push({ events: [[ev('running', 'All so far'), '10'], [ev('running', '.'), '11'], [ev('completed', ''), '11']] });
    const replaces: boolean[] = [];
    const last = await follow(9, null, (_e, replace) => replaces.push(replace), new AbortController().signal);
    expect(asked).toEqual([undefined]);
    expect(replaces).toEqual([true, false, false]);
    expect(last?.status).toBe('completed');
  });

  it('gives up after its retries (null), and a refusal by the platform throws at once', async () => {
    for (let i = 0; i <= RETRY_MS.length; i++) scripts.push({ events: [], error: new TypeError('Failed to fetch') });
    const done = follow(9, 0, () => {}, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(RETRY_MS.reduce((a, b) => a + b, 0));
    expect(await done).toBeNull();
    expect(asked).toHaveLength(RETRY_MS.length + 1);

    asked.length = 0;
    scripts.push({ events: [], error: new FakeApiError(404, 'Agent response not found') });
    await expect(follow(9, 0, () => {}, new AbortController().signal)).rejects.toThrow('Agent response not found');
    expect(asked).toHaveLength(1);
  });
});
