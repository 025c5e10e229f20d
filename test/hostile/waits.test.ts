/**
 * Waits that must end with their client, and answers that must not claim what did not happen.
 * A client that leaves an execute `wait_execution` wait or a file process wait used to leave a
 * 100 s timer and its closure behind; the desktop main process's question for the API's URL had
 * no deadline; a run ending as the database closed was reported stored.
 *
 * The waits' time limits are made long here (10 minutes, by wrapping the service): the only thing
 * that can end them within the test is the client leaving.
 */
import { EventEmitter, getEventListeners } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { KEY, startWithFake, type TestServer } from '../openai/server.js';
import { closePlatform, makePlatform } from '../api/helpers.js';
import { upload } from '../files/helpers.js';
import { PlatformProcess, type PlatformChild } from '../../src-main/desktop/platform-process.js';
import { McpConnection } from '../../src-main/platform/modules/tools/mcp-client.js';
import { runPlatformHost } from '../../src-main/platform/host/host.js';
import path from 'node:path';
import { limit, until } from '../fixtures/until.js';

const LONG = 10 * 60_000;

describe('the execute wait ends when its client leaves', () => {
  let s: TestServer & { fake: { set(o: object): void } };
  beforeAll(async () => {
    // One token a second, for a long time: the execution outlives the test unless canceled.
    s = await startWithFake({ tokens: Array.from({ length: 10_000 }, (_, i) => `w${i} `), delayMs: 1000 });
  }, limit(60_000));
  afterAll(() => s?.close());

  it('a wait_execution request whose client left stops waiting; the run goes on', async () => {
    const ex = s.p.services.executions;
    const waitFor = ex.waitFor.bind(ex);
    let ended = false;
    let id = 0;
    ex.waitFor = (userId, rawId, _timeoutMs, signal) => {
      id = Number(rawId);
      const w = waitFor(userId, rawId, LONG, signal);
      void w.then(() => (ended = true));
      return w;
    };
    const client = new AbortController();
    const sent = fetch(`${s.url}/api/agents/1/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', tools: 'no-tools', temperature: '0.5', messages: [{ role: 'user', content: 'Take your time.' }], wait_execution: true }),
      signal: client.signal,
    }).catch((err: Error) => err);
    await until('the wait to begin', () => id > 0);
    client.abort();
    expect(await sent).toBeInstanceOf(Error);
    await until('the wait to end with its client', () => ended, 30_000);
    // The execution itself was not the client's to stop.
    expect(ex.get(1, id).status).toMatch(/starting|running/);
    ex.cancel(1, id);
  });
});

describe('the file process wait ends when its client leaves', () => {
  it('resolves with the file as it is once the signal aborts', async () => {
    const p = makePlatform();
    try {
      const up = await upload(p, 'notes.txt', 'Bees tend the hive.', { process: false });
      const fileId = up.json.id as number;
      // Held in progress with no job behind it: nothing but the client leaving ends the wait.
      p.db.prepare("UPDATE files SET status = 'in_progress' WHERE id = ?").run(fileId);
      const client = new AbortController();
      let ended = false;
      const waiting = p.services.files.process(1, fileId, LONG, client.signal).then((f) => {
        ended = true;
        return f;
      });
      client.abort();
      await until('the wait to end with its client', () => ended, 30_000);
      expect((await waiting).status).toBe('in_progress');
    } finally {
      await closePlatform(p);
    }
  });
});

describe('a run that ends as the database closes', () => {
  it('is not reported stored', async () => {
    const p = makePlatform();
    const store = (p.services.executions as unknown as { store: { finishSoon(f: object): Promise<void> } }).store;
    await closePlatform(p);
    const record = { id: 1, status: 'failed', output: '', errorMessage: null, errorCode: null, credits: 0, inputTokens: 0, outputTokens: 0, outputFileId: null, provider: null, context: null, steps: [], now: 1 };
    await expect(store.finishSoon(record)).rejects.toThrow(/closed/);
  });
});

describe("the desktop's question for the API's URL", () => {
  it('answers the last known URL when the platform does not answer in time', async () => {
    class Child extends EventEmitter {
      pid = 1;
      answer = true;
      postMessage(m: any) {
        queueMicrotask(() => {
          if (m.type === 'start') this.emit('message', { type: 'ready', apiUrl: 'http://127.0.0.1:8787' });
          if (m.type === 'api-url' && this.answer) this.emit('message', { type: 'reply', id: m.id, value: 'http://127.0.0.1:8787' });
        });
      }
      kill() {
        queueMicrotask(() => this.emit('exit', 0));
        return true;
      }
    }
    const child = new Child();
    const port = () => ({ postMessage: vi.fn(), start: vi.fn(), close: vi.fn(), on: vi.fn() });
    const pp = new PlatformProcess({
      fork: () => child as unknown as PlatformChild,
      channel: () => ({ port1: port(), port2: port() }),
      options: () => ({ dataDir: '/d', resourcesDir: '/r', dataKey: null }),
      openLegacy: () => [],
      serveReaders: () => ({ close: vi.fn() }),
      replyTimeoutMs: 50,
    });
    await pp.start();
    expect(await pp.apiUrl()).toBe('http://127.0.0.1:8787');
    // Busy (or stuck): no answer comes; the URL it last gave is the answer, not a wait without end.
    child.answer = false;
    let answered: string | null | undefined;
    void pp.apiUrl().then((u) => (answered = u));
    await until('an answer without the platform', () => answered !== undefined, 10_000);
    expect(answered).toBe('http://127.0.0.1:8787');
  });
});

describe("an MCP server's back-off wait", () => {
  it("leaves no abort listener on the caller's signal once it is over", async () => {
    const quiet = { info() {}, warn() {}, error() {}, debug() {} };
    // Nothing listens on port 9: each start fails at once.
    const mcp = new McpConnection({ id: 1, name: 'gone', transport: 'http', command: null, args: [], env: {}, cwd: null, url: 'http://127.0.0.1:9/mcp', headers: {} }, quiet as never);
    // A run's signal lives as long as the run, across many tool calls.
    const run = new AbortController();
    for (let i = 0; i < 3; i++) {
      // In its back-off: the call waits it out, then starts (and fails).
      (mcp as unknown as { nextStartAt: number }).nextStartAt = Date.now() + 20;
      await mcp.connect(run.signal).catch(() => {});
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    await mcp.close();
  });
});

describe("the platform process's question to the main process", () => {
  it('starts without the legacy secrets when the main process does not answer in time', async () => {
    // A data dir holding a secret an older version sealed with the keychain: the platform asks the main process to open it.
    const seeded = makePlatform();
    seeded.services.settings.set('providers.list' as never, [{ id: 'x', api_key_sealed: 'safe:AAAA' }] as never);
    await seeded.close();
    const told: any[] = [];
    const parent = new EventEmitter() as EventEmitter & { postMessage(m: unknown): void };
    parent.postMessage = (m) => told.push(m);
    const host = runPlatformHost(parent as never, () => {}, 100);
    try {
      parent.emit('message', { data: { type: 'start', options: { dataDir: seeded.dir, resourcesDir: path.resolve('resources'), dataKey: null } }, ports: [] });
      await until('the question', () => told.some((m) => m.type === 'open-legacy'));
      // No answer ever comes (the keychain hangs): the start goes on after the deadline.
      await until('the platform to be ready', () => told.find((m) => m.type === 'ready' || m.type === 'failed'), 30_000);
      expect(told.find((m) => m.type === 'ready' || m.type === 'failed').type).toBe('ready');
    } finally {
      await host.stop();
      await closePlatform(seeded).catch(() => {});
    }
  });
});
