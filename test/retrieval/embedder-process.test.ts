/**
 * The built-in embedder runs in a process of its own, launched through the reader launcher: it
 * starts on demand, ends after an idle period (an injected clock, never wall time) so that all its
 * memory goes back, starts again on the next request with the same vectors, stops work whose
 * caller left, is started again after a crash (kernel/supervisor.ts's back-off) and refuses work
 * beyond its queue. Whether the process really ended is read from /proc.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { limit, until } from '../fixtures/until.js';
import { ManualClock } from '../fixtures/manual-clock.js';
import { BuiltinEmbedder, launchEmbedderProcess, type EmbedderChild } from '../../src-main/platform/ingest/embed/builtin.js';
import type { FromEmbedder, ToEmbedder } from '../../src-main/platform/ingest/embed/builtin-protocol.js';
import type { IdleClock } from '../../src-main/platform/kernel/idle-end.js';

const idleClock = (c: ManualClock): IdleClock => ({ now: c.now, set: c.setTimeout, clear: c.clearTimeout });

/** The pids of the embedder processes this test process started (their entry is bundled under this pid's name). */
function embedderPids(): number[] {
  const mark = `builtin-process-${process.pid}.mjs`;
  return fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(mark) ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/** The real process, with what it says and how it ended recorded. */
function watched() {
  const launched: EmbedderChild[] = [];
  const replies: FromEmbedder[] = [];
  const sent: ToEmbedder[] = [];
  const closes: (number | null)[] = [];
  const launch = async (): Promise<EmbedderChild> => {
    const child = await launchEmbedderProcess();
    launched.push(child);
    child.on('message', (m) => replies.push(m));
    child.on('close', (code) => closes.push(code));
    const send = child.send.bind(child);
    child.send = (m) => {
      sent.push(m);
      send(m);
    };
    return child;
  };
  return { launch, launched, replies, sent, closes };
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((n, x, i) => n + x * b[i], 0);
const sentences = (n: number) => Array.from({ length: n }, (_, i) => `Sentence number ${i} about bees, lavender and the weather in spring.`);

describe.runIf(process.platform === 'linux')('the built-in embedder process', () => {
  it('embeds in its own process: unit vectors that place meanings near each other', async () => {
    const e = new BuiltinEmbedder({ idleMs: 0 });
    try {
      const [bees, bees2, market] = await e.embed(['bees like lavender', 'bees love lavender flowers', 'the stock market fell sharply today']);
      expect(bees).toHaveLength(512);
      expect(dot(bees, bees)).toBeCloseTo(1, 5);
      expect(dot(bees, bees2)).toBeGreaterThan(dot(bees, market) + 0.2);
      // In a process of its own (its priority: builtin-priority.test.ts).
      expect(embedderPids()).toHaveLength(1);
    } finally {
      await e.close();
    }
    await until('the embedder process to end', () => embedderPids().length === 0);
  }, limit(120_000));

  it('ends after the idle period (not during a request), its process gone, and starts again on demand with the same vectors', async () => {
    const clock = new ManualClock();
    const w = watched();
    const e = new BuiltinEmbedder({ idleMs: 60_000, clock: idleClock(clock), launch: w.launch });
    try {
      const [first] = await e.embed(['bees like lavender']);
      expect(e.running).toBe(true);
      expect(embedderPids()).toHaveLength(1);
      clock.advance(59_000);
      expect(e.running).toBe(true);

      // A request in flight holds the process past the period.
      const pending = e.embed(sentences(3));
      clock.advance(120_000);
      expect(e.running).toBe(true);
      expect(await pending).toHaveLength(3);

      clock.advance(60_000);
      expect(e.running).toBe(false);
      await until('the idle process to exit', () => w.closes.length === 1 && embedderPids().length === 0);

      const [again] = await e.embed(['bees like lavender']);
      expect(w.launched).toHaveLength(2);
      expect(e.running).toBe(true);
      expect(Array.from(again)).toEqual(Array.from(first));
    } finally {
      await e.close();
    }
  }, limit(120_000));

  it('a caller that leaves stops the work: alone, its process is ended; with others waiting, it stops at the next batch and the others are answered', async () => {
    const w = watched();
    const e = new BuiltinEmbedder({ idleMs: 0, launch: w.launch });
    try {
      // Alone: the process goes with the request.
      const alone = new AbortController();
      const lone = e.embed(sentences(400), alone.signal);
      await until('the process to be at work', () => w.sent.some((m) => m.op === 'embed'));
      alone.abort(new Error('the client left'));
      await expect(lone).rejects.toThrow('the client left');
      expect(e.running).toBe(false);
      await until('the process to be ended', () => w.closes.length === 1 && embedderPids().length === 0);
      expect(w.replies).toEqual([]);

      // With another request waiting: a cancel, answered at the next batch; the other gets its vectors.
      const leaving = new AbortController();
      const left = e.embed(sentences(400), leaving.signal);
      const stays = e.embed(['bees like lavender', 'a second sentence']);
      await until('the process to be at work', () => w.sent.filter((m) => m.op === 'embed').length === 3);
      leaving.abort();
      await expect(left).rejects.toThrow();
      const canceledId = (w.sent.find((m) => m.op === 'cancel') as { id: number } | undefined)?.id;
      expect(canceledId).toBeDefined();
      expect(await stays).toHaveLength(2);
      await until('the canceled request to be answered early', () => w.replies.some((r) => r.id === canceledId));
      expect(w.replies.find((r) => r.id === canceledId)).toEqual({ id: canceledId, error: 'canceled' });
      expect(e.running).toBe(true);
    } finally {
      await e.close();
    }
  }, limit(180_000));

  it('a process killed from outside with requests waiting is started again (after the back-off) and they are answered', async () => {
    const clock = new ManualClock();
    const w = watched();
    const e = new BuiltinEmbedder({ idleMs: 0, clock: idleClock(clock), launch: w.launch, restart: { waits: [250] } });
    try {
      const [before] = await e.embed(['bees like lavender']);
      const waiting = e.embed(['bees like lavender', ...sentences(200)]);
      await until('the process to be at work', () => w.sent.filter((m) => m.op === 'embed').length === 2);
      for (const pid of embedderPids()) process.kill(pid, 'SIGKILL');
      await until('the crash to be seen', () => w.closes.length === 1);
      expect(w.launched).toHaveLength(1);
      // The back-off, on the injected clock.
      clock.advance(249);
      expect(w.launched).toHaveLength(1);
      clock.advance(1);
      const [again] = await waiting;
      expect(w.launched).toHaveLength(2);
      // The same sentence (batched with others, so equal to float rounding, not bit for bit).
      expect(dot(again, before)).toBeGreaterThan(0.9999);
    } finally {
      await e.close();
    }
  }, limit(180_000));
});

/** A stand-in process: it answers only when the test says so, and dies when told. */
function fakeProcesses() {
  const made: { child: EmbedderChild; got: ToEmbedder[]; reply(m: FromEmbedder): void; die(): void; killed: boolean }[] = [];
  const launch = async (): Promise<EmbedderChild> => {
    const listeners: { message: ((m: FromEmbedder) => void)[]; close: ((c: number | null, s: NodeJS.Signals | null) => void)[] } = { message: [], close: [] };
    const entry = {
      got: [] as ToEmbedder[],
      killed: false,
      reply: (m: FromEmbedder) => listeners.message.forEach((l) => l(m)),
      die: () => listeners.close.forEach((l) => l(null, 'SIGSEGV')),
      child: {
        send: (m: ToEmbedder) => void entry.got.push(m),
        kill: () => {
          entry.killed = true;
        },
        ref() {},
        unref() {},
        on: (event: 'message' | 'close', l: never) => void listeners[event].push(l),
      } as EmbedderChild,
    };
    made.push(entry);
    return entry.child;
  };
  return { made, launch };
}

const vectorsOf = (n: number, dims = 4): FromEmbedder & { vectors: string } => ({ id: 0, dims, vectors: Buffer.from(new Float32Array(n * dims).fill(1).buffer).toString('base64') });

describe('the built-in embedder process: restarts and bounds', () => {
  it('a process that keeps dying is started again with back-off, then its requests fail instead of waiting forever', async () => {
    const clock = new ManualClock();
    const f = fakeProcesses();
    const e = new BuiltinEmbedder({ idleMs: 0, clock: idleClock(clock), launch: f.launch, restart: { waits: [100, 200, 400] } });
    const p = e.embed(['one', 'two']);
    const failed = expect(p).rejects.toThrow(/The built-in embedder stopped: exit code null, SIGSEGV/);
    await until('the first process', () => f.made[0]?.got.some((m) => m.op === 'embed'));
    for (const [i, wait] of [100, 200, 400].entries()) {
      f.made[i].die();
      clock.advance(wait - 1);
      expect(f.made).toHaveLength(i + 1);
      clock.advance(1);
      await until(`process ${i + 2} to get the request again`, () => f.made[i + 1]?.got.some((m) => m.op === 'embed'));
    }
    // Three deaths in a row with the request waiting: the fourth gives up.
    f.made[3].die();
    await failed;
    expect(e.running).toBe(false);
    expect(clock.pending).toBe(0);

    // A request after that starts a process again, and an answer resolves it (unit length).
    const q = e.embed(['three']);
    await until('a new process', () => f.made[4]?.got.some((m) => m.op === 'embed'));
    const id = (f.made[4].got.find((m) => m.op === 'embed') as { id: number }).id;
    f.made[4].reply({ ...vectorsOf(1), id });
    const [v] = await q;
    expect(dot(v, v)).toBeCloseTo(1, 6);
    await e.close();
    expect(f.made[4].killed).toBe(true);
  });

  it('refuses texts beyond its queue (busy, 503 upstream) rather than queueing without end; a close fails what waits at once', async () => {
    const f = fakeProcesses();
    const e = new BuiltinEmbedder({ idleMs: 0, launch: f.launch, maxWaitingTexts: 10 });
    const a = e.embed(sentences(8));
    const closed = expect(a).rejects.toThrow('The built-in embedder was closed.');
    await expect(e.embed(sentences(3))).rejects.toMatchObject({ code: 'embedder_unavailable' });
    const b = e.embed(sentences(2));
    const closedToo = expect(b).rejects.toThrow('The built-in embedder was closed.');
    await e.close();
    await closed;
    await closedToo;
    expect(e.running).toBe(false);
  });

  it('an abort before the process is there never starts work on it, and the starting process is ended', async () => {
    const f = fakeProcesses();
    const e = new BuiltinEmbedder({ idleMs: 0, launch: f.launch });
    const c = new AbortController();
    const p = e.embed(['one'], c.signal);
    c.abort();
    await expect(p).rejects.toThrow();
    await until('the process to have been launched', () => f.made.length === 1);
    await until('the process to be ended', () => f.made[0].killed);
    expect(f.made[0].got.filter((m) => m.op === 'embed')).toEqual([]);
    expect(e.running).toBe(false);
  });
});
