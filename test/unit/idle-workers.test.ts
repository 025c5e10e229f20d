/**
 * On-demand resources end after an idle period and start again on the next use: the tokenizer's
 * tables (built on the calling thread in slices; no thread counts). The built-in embedder is a process now (test/retrieval/embedder-process.test.ts). Time is an injected clock; whether a thread
 * runs is read from /proc (Linux), never a fixed time.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IdleEnd, workerIdleMs, DEFAULT_WORKER_IDLE_MS, type IdleClock } from '../../src-main/platform/kernel/idle-end.js';
import { countTokensSync, estimateTokens, setTokenizerIdle, tokenCounter, tokenizerMemory, tokenizerReady } from '../../src-main/platform/engine/tokens.js';

/** A clock whose time moves only when told; due timers fire in order, including ones set while firing. */
function fakeClock() {
  let now = 0;
  let nextId = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: IdleClock & { advance(ms: number): void; pending(): number } = {
    now: () => now,
    set: (fn, ms) => {
      timers.set(nextId, { at: now + ms, fn });
      return nextId++;
    },
    clear: (h) => void timers.delete(h as number),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
  return clock;
}

/** Names of this process's threads (a worker thread is named after its `name` option). */
const threads = () =>
  fs.readdirSync('/proc/self/task').flatMap((t) => {
    try {
      return [fs.readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim()];
    } catch {
      return [];
    }
  });
const count = (name: string) => threads().filter((n) => n === name).length;

describe('IdleEnd', () => {
  it('ends after the period without use; each use pushes the end back; nothing ends while work is in flight', () => {
    const clock = fakeClock();
    let ended = 0;
    let busy = false;
    const idle = new IdleEnd({ ms: 1000, clock, end: () => ended++, canEnd: () => !busy });
    expect(clock.pending()).toBe(0);
    idle.touch();
    clock.advance(600);
    idle.touch();
    clock.advance(600);
    expect(ended).toBe(0);
    clock.advance(400);
    expect(ended).toBe(1);
    expect(clock.pending()).toBe(0);

    idle.touch();
    busy = true;
    clock.advance(5000);
    expect(ended).toBe(1);
    busy = false;
    clock.advance(1000);
    expect(ended).toBe(2);

    idle.touch();
    idle.cancel();
    clock.advance(5000);
    expect(ended).toBe(2);
  });

  it('a period of 0 never ends; AGENT_DESK_WORKER_IDLE_S sets the period (60 s unset or unreadable)', () => {
    const clock = fakeClock();
    let ended = 0;
    new IdleEnd({ ms: 0, clock, end: () => ended++ }).touch();
    expect(clock.pending()).toBe(0);
    expect(workerIdleMs({})).toBe(DEFAULT_WORKER_IDLE_MS);
    expect(DEFAULT_WORKER_IDLE_MS).toBe(60_000);
    expect(workerIdleMs({ AGENT_DESK_WORKER_IDLE_S: '2.5' })).toBe(2500);
    expect(workerIdleMs({ AGENT_DESK_WORKER_IDLE_S: '0' })).toBe(0);
    expect(workerIdleMs({ AGENT_DESK_WORKER_IDLE_S: 'soon' })).toBe(DEFAULT_WORKER_IDLE_MS);
    expect(workerIdleMs({ AGENT_DESK_WORKER_IDLE_S: '-1' })).toBe(DEFAULT_WORKER_IDLE_MS);
  });
});

describe.runIf(process.platform === 'linux')('the tokenizer keeps no thread, and lets its tables go when idle', () => {
  it('the tokenizer: no thread; its tables go after the idle period (counts fall back to the estimate), and the next tokenCounter() brings exact counts back', async () => {
    const clock = fakeClock();
    setTokenizerIdle({ ms: 60_000, clock });
    const text = 'Exact counts come back after the tokenizer rests.';
    const exact = (await tokenCounter())(text);
    expect(exact).not.toBe(estimateTokens(text));
    // Counts are made here: no thread counts them, none built the tables.
    expect(count('tokenizer')).toBe(0);
    clock.advance(30_000);
    expect(countTokensSync(text)).toBe(exact);
    clock.advance(59_000);
    expect(tokenizerReady()).toBe(true);

    clock.advance(1_000);
    expect(tokenizerReady()).toBe(false);
    expect(tokenizerMemory()).toBeNull();
    expect(countTokensSync(text)).toBe(estimateTokens(text));

    expect((await tokenCounter())(text)).toBe(exact);
    expect(countTokensSync(text)).toBe(exact);
    expect(tokenizerMemory()).not.toBeNull();
    expect(count('tokenizer')).toBe(0);
  });
});
