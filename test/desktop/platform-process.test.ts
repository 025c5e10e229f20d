import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { MAX_RESTARTS, PlatformProcess, StartFailure, type PlatformChild } from '../../src-main/desktop/platform-process.js';
import { serveReaderLauncher, type ReaderProcess } from '../../src-main/desktop/reader-launcher.js';
import { CHANNELS } from '../../src-main/desktop/channels.js';
import { until } from '../fixtures/until.js';

/** A platform process the test scripts: it records what main sends and answers as told. */
class FakeChild extends EventEmitter {
  static n = 100;
  pid = FakeChild.n++;
  sent: unknown[] = [];
  killed = false;
  constructor(private readonly behave: (c: FakeChild, m: any) => void) {
    super();
  }
  postMessage(m: any) {
    this.sent.push(m);
    queueMicrotask(() => this.behave(this, m));
  }
  kill() {
    this.killed = true;
    queueMicrotask(() => this.emit('exit', 137));
    return true;
  }
  die() {
    this.emit('exit', 137);
  }
}

function port() {
  return { postMessage: vi.fn(), start: vi.fn(), close: vi.fn(), on: vi.fn() };
}

function page() {
  const p = new EventEmitter() as EventEmitter & { postMessage: ReturnType<typeof vi.fn>; send: ReturnType<typeof vi.fn>; isDestroyed(): boolean };
  p.postMessage = vi.fn();
  p.send = vi.fn();
  p.isDestroyed = () => false;
  return p;
}

function proc(behave: (c: FakeChild, m: any) => void) {
  const children: FakeChild[] = [];
  const readers = { close: vi.fn() };
  const pp = new PlatformProcess({
    fork: () => {
      const c = new FakeChild(behave);
      children.push(c);
      return c as unknown as PlatformChild;
    },
    channel: () => ({ port1: port(), port2: port() }),
    options: () => ({ dataDir: '/d', resourcesDir: '/r', dataKey: null }),
    openLegacy: (sealed) => (sealed as string[]).map((s) => `opened ${s}`),
    serveReaders: () => readers,
    backoffMs: [0],
  });
  return { pp, children, readers };
}

const serving = (c: FakeChild, m: any) => {
  if (m.type === 'start') c.emit('message', { type: 'ready', apiUrl: 'http://127.0.0.1:1' });
  if (m.type === 'api-url') c.emit('message', { type: 'reply', id: m.id, value: 'http://127.0.0.1:1' });
  if (m.type === 'stop') c.die();
};

describe('the platform process, from the main process', () => {
  it('hands a page a port once the platform serves, and a new one after each restart; the page hears the engine stop', async () => {
    const { pp, children, readers } = proc(serving);
    const pg = page();
    pp.connect(pg as any);
    expect(pg.postMessage).not.toHaveBeenCalled();
    expect(await pp.start()).toBe('http://127.0.0.1:1');
    expect(pg.postMessage).toHaveBeenCalledTimes(1);
    expect(pg.postMessage.mock.calls[0][0]).toBe(CHANNELS.port);
    // The readers' port went first, then the start, then the page's port.
    expect(children[0].sent.map((m: any) => m.type)).toEqual(['readers', 'start', 'bridge']);
    expect(await pp.apiUrl()).toBe('http://127.0.0.1:1');

    children[0].die();
    expect(readers.close).toHaveBeenCalled(); // its readers end with it
    expect(pg.send).toHaveBeenCalledWith(CHANNELS.engine, { running: false, message: "Agent Desk's engine stopped and is restarting…" });
    await until('a second platform to serve', () => pp.running && children.length === 2);
    expect(pg.postMessage).toHaveBeenCalledTimes(2);
    await pp.stop();
    expect(children[1].sent.at(-1)).toEqual({ type: 'stop' });
    expect(children).toHaveLength(2); // no restart after a quit
  });

  it('a first start that fails rejects with its sentence and restarts nothing', async () => {
    const { pp, children } = proc((c, m) => m.type === 'start' && c.emit('message', { type: 'failed', message: 'This database is at schema version 99.', startup: true }));
    const err = await pp.start().catch((e) => e);
    expect(err).toBeInstanceOf(StartFailure);
    expect(err).toMatchObject({ message: 'This database is at schema version 99.', startup: true });
    await until('the child to be ended', () => children[0].killed);
    expect(children).toHaveLength(1);
  });

  it('opens legacy secrets for the platform with the keychain', async () => {
    const { pp, children } = proc((c, m) => {
      if (m.type === 'start') c.emit('message', { type: 'open-legacy', id: 1, sealed: ['safe:a'] });
      if (m.type === 'reply') c.emit('message', { type: 'ready', apiUrl: null });
    });
    await pp.start();
    expect(children[0].sent).toContainEqual({ type: 'reply', id: 1, value: ['opened safe:a'] });
  });

  it('stops restarting a platform that keeps dying, and says so', async () => {
    let starts = 0;
    const { pp, children } = proc((c, m) => {
      if (m.type !== 'start') return;
      starts++;
      c.emit('message', { type: 'ready', apiUrl: null });
      queueMicrotask(() => c.die());
    });
    const pg = page();
    pp.connect(pg as any);
    const gaveUp = new Promise<string>((r) => pp.once('gave-up', r));
    await pp.start();
    expect(await gaveUp).toMatch(/keeps stopping/);
    expect(starts).toBe(MAX_RESTARTS + 1);
    expect(children).toHaveLength(MAX_RESTARTS + 1);
    expect(pg.send).toHaveBeenLastCalledWith(CHANNELS.engine, { running: false, message: expect.stringMatching(/Quit and reopen Agent Desk/) });
  });
});

describe('reading processes launched by the main process', () => {
  class FakeReader extends EventEmitter implements ReaderProcess {
    pid = 4242;
    stderr = null;
    posted: unknown[] = [];
    postMessage(m: unknown) {
      this.posted.push(m);
    }
    kill() {
      queueMicrotask(() => this.emit('exit', 137));
      return true;
    }
  }

  function launcher() {
    const listeners: Record<string, (e?: any) => void> = {};
    const p = { postMessage: vi.fn(), start: vi.fn(), close: vi.fn(), on: (ev: string, l: any) => (listeners[ev] = l) };
    const readers: FakeReader[] = [];
    const setPriority = vi.fn();
    const forks: [string, string[]][] = [];
    const served = serveReaderLauncher(p as any, {
      fork: (entry, execArgv) => {
        forks.push([entry, execArgv]);
        const r = new FakeReader();
        readers.push(r);
        return r;
      },
      setPriority,
    });
    return { p, send: (data: unknown) => listeners.message({ data }), close: () => listeners.close(), readers, setPriority, forks, served };
  }

  it('speaks the launcher protocol: spawn at nice 5, send, message back, kill closes as SIGKILL', async () => {
    const l = launcher();
    l.send({ op: 'spawn', id: 1, entry: '/app/out/main/worker.js', execArgv: ['--max-old-space-size=450'] });
    expect(l.forks).toEqual([['/app/out/main/worker.js', ['--max-old-space-size=450']]]);
    l.readers[0].emit('spawn');
    expect(l.setPriority).toHaveBeenCalledWith(4242, 5);
    l.send({ op: 'send', id: 1, msg: { fileId: 3 } });
    expect(l.readers[0].posted).toEqual([{ fileId: 3 }]);
    l.readers[0].emit('message', { result: { ok: true } });
    expect(l.p.postMessage).toHaveBeenCalledWith({ op: 'message', id: 1, msg: { result: { ok: true } } });
    l.send({ op: 'kill', id: 1 });
    await until('the close', () => l.p.postMessage.mock.calls.some(([m]) => m.op === 'close'));
    expect(l.p.postMessage).toHaveBeenLastCalledWith({ op: 'close', id: 1, code: null, signal: 'SIGKILL', stderr: '' });
  });

  it('launches nothing but a reader with a heap limit', () => {
    const l = launcher();
    l.send({ op: 'spawn', id: 2, entry: '/x.js', execArgv: ['--inspect=0.0.0.0:9229'] });
    expect(l.forks).toEqual([]);
    expect(l.p.postMessage.mock.calls.map(([m]) => m.op)).toEqual(['error', 'close']);
  });

  it('ends the readers of a platform that went away', async () => {
    const l = launcher();
    l.send({ op: 'spawn', id: 1, entry: '/w.js', execArgv: [] });
    const killed = vi.spyOn(l.readers[0], 'kill');
    l.close();
    expect(killed).toHaveBeenCalled();
  });
});
