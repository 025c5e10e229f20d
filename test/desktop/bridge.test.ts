import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { MessageChannel as NodeMessageChannel, type MessagePort as NodeMessagePort } from 'node:worker_threads';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron } from './fake-electron.js';
import { closePlatform, makePlatform, tempDir, BASE } from '../api/helpers.js';
import { BRIDGE_PRINCIPAL, handleBridgeRequest, toPlatformRequest, BridgeInputError } from '../../src-main/platform/transports/port/requests.js';
import { servePort } from '../../src-main/platform/transports/port/server.js';
import { isTrustedSender, readPickedFiles, registerBridge, REFUSED } from '../../src-main/desktop/bridge.js';
import { CHANNELS, ENGINE_RESTARTING, ENGINE_STOPPED_ERROR } from '../../src-main/desktop/channels.js';
import { isAppUrl } from '../../src-main/desktop/app-protocol.js';
import type { Platform } from '../../src-main/platform/platform.js';
import type { FromPlatform, ToPlatform } from '../../src-preload/api.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { until } from '../fixtures/until.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);

/** A MessagePortMain look-alike over a Node port (MessagePortMain wraps payloads as {data}). */
function mainPort(port: NodeMessagePort) {
  return {
    postMessage: (m: unknown) => port.postMessage(m),
    start: () => port.start(),
    close: () => port.close(),
    on(event: string, fn: (e: any) => void) {
      if (event === 'message') port.on('message', (data) => fn({ data }));
      else port.on(event, fn);
      return this;
    },
  };
}

/** The renderer's end of a served port: sends calls by id, gathers what comes back per id. */
function client(port: NodeMessagePort) {
  const got = new Map<number, FromPlatform[]>();
  const waiters: (() => void)[] = [];
  port.on('message', (m: FromPlatform) => {
    got.set(m.id, [...(got.get(m.id) ?? []), m]);
    for (const w of waiters.splice(0)) w();
  });
  const settled = (id: number) => (got.get(id) ?? []).some((m) => m.t === 'end' || m.t === 'response');
  return {
    send: (m: ToPlatform) => port.postMessage(m),
    got: (id: number) => got.get(id) ?? [],
    /** Everything for `id` up to its end or response. */
    done: async (id: number): Promise<FromPlatform[]> => {
      await until(`call ${id} to end`, () => settled(id));
      return got.get(id)!;
    },
    text: (id: number) => (got.get(id) ?? []).map((m) => (m.t === 'chunk' ? m.text : '')).join(''),
  };
}

/** A served port over a Node channel: the platform side gets port2 (as MessagePortMain), the test port1. */
function served(platform: Pick<Platform, 'app'>) {
  const { port1, port2 } = new NodeMessageChannel();
  const server = servePort(platform, mainPort(port2), () => BASE);
  return { c: client(port1), port1, server };
}

/** Never opens: a stream held on it ends only when its reader goes away. */
const NEVER = new Promise<void>(() => {});

/**
 * An SSE endpoint like the execution stream: numbered events, one turn of the event loop apart; with
 * `held`, the events after the first wait for it (the test decides when the stream may go on, never a clock).
 */
function sseApp(events: number, onAbort?: () => void, held?: Promise<void>) {
  const app = new Hono();
  app.get('/api/stream', (c) =>
    streamSSE(c, async (s) => {
      let aborted = false;
      s.onAbort(() => {
        aborted = true;
        onAbort?.();
      });
      for (let i = 1; i <= events && !aborted; i++) {
        await s.writeSSE({ data: JSON.stringify({ n: i, status: i === events ? 'completed' : 'running' }) });
        if (i === 1 && held) await Promise.race([held, new Promise<void>((r) => s.onAbort(r))]);
        else await new Promise((r) => setImmediate(r));
      }
    }),
  );
  app.get('/api/who', (c) => c.json({ env: (c.env as any)?.trustedPrincipal ?? null }));
  return { app } as unknown as Pick<Platform, 'app'>;
}

describe('bridge requests', () => {
  let p: Platform & { dir: string };
  beforeAll(() => {
    p = makePlatform();
  });
  afterAll(() => closePlatform(p));

  it('reaches the platform through app.fetch with the trusted principal, no key needed', async () => {
    const spy = vi.spyOn(p.app, 'fetch');
    try {
      const res = await handleBridgeRequest(p, { method: 'GET', path: '/api/agents?per_page=2' }, BASE);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).per_page).toBe(2);
      expect(res.headers['content-type']).toMatch(/json/);
      const [req, env] = spy.mock.calls[0] as [Request, any];
      expect(req.url).toBe(`${BASE}/api/agents?per_page=2`);
      expect(env).toEqual({ trustedPrincipal: { userId: 1, via: 'bridge' } });
    } finally {
      spy.mockRestore();
    }
  });

  it('acts as user 1 for writes (JSON as text or as bytes)', async () => {
    const text = await handleBridgeRequest(p, { method: 'POST', path: '/api/memories', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ memory: 'from the bridge' }) }, BASE);
    expect(text.status).toBe(200);
    expect(JSON.parse(text.body).memory).toMatchObject({ user_id: 1, memory: 'from the bridge' });
    const bytes = new TextEncoder().encode(JSON.stringify({ memory: 'as bytes' }));
    const bin = await handleBridgeRequest(p, { method: 'POST', path: '/api/memories', headers: { 'content-type': 'application/json' }, body: bytes.buffer as ArrayBuffer }, BASE);
    expect(JSON.parse(bin.body).memory.memory).toBe('as bytes');
    // IPC may deliver a Buffer view into a larger pool: only the viewed bytes count.
    const pool = Buffer.from(`xxxx${JSON.stringify({ memory: 'view' })}yyyy`);
    const view = pool.subarray(4, pool.length - 4);
    const v = await handleBridgeRequest(p, { method: 'POST', path: '/api/memories', headers: { 'content-type': 'application/json' }, body: view as any }, BASE);
    expect(JSON.parse(v.body).memory.memory).toBe('view');
  });

  it('keeps the API errors as they are (validation, not found)', async () => {
    const res = await handleBridgeRequest(p, { method: 'GET', path: '/api/agents/999999' }, BASE);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ message: 'Agent not found' });
  });

  it('cannot be forged over HTTP: the same call without the bridge needs a key', async () => {
    const res = await p.app.request(`${BASE}/api/agents`, { headers: { host: '127.0.0.1:8787', 'x-trusted-principal': JSON.stringify(BRIDGE_PRINCIPAL) } });
    expect(res.status).toBe(401);
  });

  it.each([
    [null, /must be an object/],
    [{ method: 'TRACE', path: '/api/agents' }, /Unsupported method/],
    [{ method: 'GET', path: 'api/agents' }, /single "\/"/],
    [{ method: 'GET', path: '//evil.example/api' }, /single "\/"/],
    [{ method: 'GET', path: 'http://evil.example/api' }, /single "\/"/],
    [{ method: 'GET', path: '/api/agents', headers: { a: 1 } }, /must be a string/],
    [{ method: 'GET', path: '/api/agents', headers: 'x' }, /object of strings/],
    [{ method: 'GET', path: '/api/agents', body: 'x' }, /has no body/],
    [{ method: 'POST', path: '/api/agents', body: { a: 1 } }, /text or bytes/],
  ])('refuses malformed input %j with a 400, never a throw', async (raw, message) => {
    expect(() => toPlatformRequest(raw, BASE)).toThrow(BridgeInputError);
    const res = await handleBridgeRequest(p, raw, BASE);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).message).toMatch(message);
  });

  it('drops headers that would misdescribe the call', () => {
    const req = toPlatformRequest({ method: 'GET', path: '/api/agents', headers: { cookie: 'a=b', Host: 'evil.example', 'x-workspace-id': '1' } }, BASE);
    expect(req.headers.get('cookie')).toBeNull();
    expect(req.headers.get('host')).toBe('127.0.0.1:8787');
    expect(req.headers.get('x-workspace-id')).toBe('1');
  });
});

describe('the platform side of the port (transports/port)', () => {
  it('delivers SSE chunks in order, then one end with the status', async () => {
    const { c, port1 } = served(sseApp(6));
    c.send({ t: 'stream', id: 1, req: { method: 'GET', path: '/api/stream' } });
    const msgs = await c.done(1);
    expect(msgs.at(-1)).toEqual({ t: 'end', id: 1, status: 200 });
    expect(msgs.slice(0, -1).every((m) => m.t === 'chunk')).toBe(true);
    const ns = [...c.text(1).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).n);
    expect(ns).toEqual([1, 2, 3, 4, 5, 6]);
    expect(msgs.length).toBeGreaterThan(2); // streamed, not one buffered blob
    port1.close();
  });

  it('multiplexes: requests are answered while streams run, each by its id', async () => {
    let goOn!: () => void;
    const { c, port1 } = served(sseApp(8, undefined, new Promise<void>((r) => (goOn = r))));
    c.send({ t: 'stream', id: 7, req: { method: 'GET', path: '/api/stream' } });
    c.send({ t: 'stream', id: 8, req: { method: 'GET', path: '/api/stream' } });
    await until('both streams to start', () => c.got(7).length > 0 && c.got(8).length > 0);
    c.send({ t: 'request', id: 9, req: { method: 'GET', path: '/api/who' } });
    const [res] = await c.done(9);
    expect(res).toMatchObject({ t: 'response', id: 9, res: { status: 200 } });
    expect(c.got(7).some((m) => m.t === 'end')).toBe(false); // answered while the streams are held open
    goOn();
    await c.done(7);
    await c.done(8);
    for (const id of [7, 8]) expect([...c.text(id).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    port1.close();
  });

  it('stops reading a stream the renderer cancels, and only that one', async () => {
    const onAbort = vi.fn();
    const { c, port1 } = served(sseApp(400, onAbort, NEVER));
    c.send({ t: 'stream', id: 1, req: { method: 'GET', path: '/api/stream' } });
    await until('the first chunk', () => c.got(1).length > 0);
    c.send({ t: 'cancel', id: 1 });
    await until('the read to stop', () => onAbort.mock.calls.length > 0);
    c.send({ t: 'request', id: 2, req: { method: 'GET', path: '/api/who' } });
    await c.done(2);
    expect(c.got(1).some((m) => m.t === 'end')).toBe(false);
    expect(c.got(1).length).toBeLessThan(100);
    port1.close();
  });

  it('stops every read when the page goes away (its port closes)', async () => {
    const onAbort = vi.fn();
    const { c, port1 } = served(sseApp(400, onAbort, NEVER));
    c.send({ t: 'stream', id: 1, req: { method: 'GET', path: '/api/stream' } });
    c.send({ t: 'stream', id: 2, req: { method: 'GET', path: '/api/stream' } });
    await until('both streams to start', () => c.got(1).length > 0 && c.got(2).length > 0);
    port1.close();
    await until('both reads to stop', () => onAbort.mock.calls.length === 2);
  });

  it('streams an error answer as its body and status; bad input is a 400 end', async () => {
    const { c, port1 } = served(sseApp(1));
    c.send({ t: 'stream', id: 1, req: { method: 'GET', path: '/api/nothing' } });
    expect((await c.done(1)).at(-1)).toEqual({ t: 'end', id: 1, status: 404 });
    c.send({ t: 'stream', id: 2, req: { method: 'GET', path: '//x' } });
    expect((await c.done(2)).at(-1)).toEqual({ t: 'end', id: 2, status: 400 });
    c.send({ t: 'request', id: 3, req: null as never });
    const [bad] = await c.done(3);
    expect(bad).toMatchObject({ t: 'response', res: { status: 400 } });
    port1.close();
  });

  it('passes the trusted principal on requests and streams', async () => {
    const { c, port1 } = served(sseApp(1));
    c.send({ t: 'stream', id: 1, req: { method: 'GET', path: '/api/who' } });
    await c.done(1);
    expect(JSON.parse(c.text(1))).toEqual({ env: { userId: 1, via: 'bridge' } });
    c.send({ t: 'request', id: 2, req: { method: 'GET', path: '/api/who' } });
    const [res] = await c.done(2);
    expect(JSON.parse((res as Extract<FromPlatform, { t: 'response' }>).res.body)).toEqual({ env: { userId: 1, via: 'bridge' } });
    port1.close();
  });
});

describe('a real execution through the port', () => {
  it('streams the model output as the spec SSE events, ending with completed', async () => {
    const fake = await startFakeOpenAI({ reply: 'Hello from the desktop bridge stream.', delayMs: 2 });
    const p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    const { c, port1 } = served(p);
    try {
      const agents = JSON.parse((await handleBridgeRequest(p, { method: 'GET', path: '/api/agents?type=chat' }, BASE)).body);
      const chat = agents.data[0];
      const model = chat.questions.find((q: any) => q.name === 'model').options.find((m: string) => m.startsWith('gpt-'));
      const body = JSON.stringify({ stream: true, answers: { temperature: '0', model, tools: 'no-tools' }, messages: [{ role: 'user', content: 'hi' }] });
      c.send({ t: 'stream', id: 1, req: { method: 'POST', path: `/api/agents/${chat.id}/execute`, headers: { 'content-type': 'application/json' }, body } });
      expect((await c.done(1)).at(-1)).toEqual({ t: 'end', id: 1, status: 200 });
      const events = [...c.text(1).matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
      expect(events.at(-1)).toMatchObject({ status: 'completed', output: '' });
      expect(typeof events.at(-1).credits).toBe('number');
      expect(events.filter((e) => e.status === 'running').map((e) => e.output).join('')).toBe('Hello from the desktop bridge stream.');
      // Stored as the bridge user's own execution.
      const stored = JSON.parse((await handleBridgeRequest(p, { method: 'GET', path: `/api/agent-responses/${events[0].id}` }, BASE)).body);
      expect(stored).toMatchObject({ status: 'succeeded', output: 'Hello from the desktop bridge stream.' });
    } finally {
      port1.close();
      await closePlatform(p);
      await fake.close();
    }
  });
});

describe('IPC handlers (main process)', () => {
  const ours = { senderFrame: { url: 'agent-desk://app/index.html', parent: null }, sender: { id: 'ours' } };
  const iframe = { senderFrame: { url: 'agent-desk://app/index.html', parent: {} }, sender: { id: 'iframe' } };
  const evil = { senderFrame: { url: 'https://evil.example/', parent: null }, sender: { id: 'evil' } };
  const gone = { senderFrame: null, sender: { id: 'gone' } };
  let dir: string;
  beforeEach(() => {
    resetFakeElectron();
    dir = tempDir('agent-desk-pick-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function register(extra: Partial<Parameters<typeof registerBridge>[0]> = {}) {
    const { ipcMain, dialog } = fakeElectron;
    const connect = vi.fn();
    const off = registerBridge({
      ipcMain: ipcMain as any,
      dialog: dialog as any,
      connect,
      maxUploadBytes: 1024,
      isAppUrl: (u) => isAppUrl(u),
      appInfo: async () => ({ version: '0.1.0', platform: 'linux', apiUrl: BASE, dataDir: '/data' }),
      windowOf: () => null,
      ...extra,
    });
    return { off, connect };
  }

  it('hands a port only to the app page, top frame; the rest are refused', async () => {
    expect(isTrustedSender(ours.senderFrame, (u) => isAppUrl(u))).toBe(true);
    for (const e of [iframe, evil, gone]) expect(isTrustedSender(e.senderFrame as any, (u) => isAppUrl(u))).toBe(false);
    const { connect } = register();
    const { ipcMain } = fakeElectron;
    for (const e of [iframe, evil, gone]) ipcMain.emit(CHANNELS.connect, e);
    expect(connect).not.toHaveBeenCalled();
    ipcMain.emit(CHANNELS.connect, ours);
    expect(connect.mock.calls).toEqual([[ours.sender]]);
    for (const ch of [CHANNELS.openFiles, CHANNELS.appInfo]) {
      for (const e of [iframe, evil, gone]) await expect(ipcMain.invoke(ch, e)).rejects.toThrow(REFUSED);
    }
    expect(await ipcMain.invoke(CHANNELS.appInfo, ours)).toMatchObject({ apiUrl: BASE });
  });

  it('opens files through the dialog, within the upload limit', async () => {
    const small = path.join(dir, 'notes.txt');
    const big = path.join(dir, 'big.pdf');
    fs.writeFileSync(small, 'hello');
    fs.writeFileSync(big, Buffer.alloc(2048));
    register();
    const { ipcMain, dialog } = fakeElectron;
    expect(await ipcMain.invoke(CHANNELS.openFiles, ours)).toEqual([]); // canceled
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [small] });
    const files = (await ipcMain.invoke(CHANNELS.openFiles, ours)) as any[];
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ name: 'notes.txt', type: 'text/plain' });
    expect(Buffer.from(files[0].data).toString()).toBe('hello');
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [small, big] });
    await expect(ipcMain.invoke(CHANNELS.openFiles, ours)).rejects.toThrow(/big\.pdf is larger than the upload limit/);
    expect(await readPickedFiles([], 10)).toEqual([]);
  });

  it('unregisters cleanly', () => {
    register().off();
    expect(fakeElectron.ipcMain.handlers.size).toBe(0);
    expect(fakeElectron.ipcMain.listenerCount(CHANNELS.connect)).toBe(0);
  });
});

/** The preload's ipcRenderer, with the main process played by the test: it hands ports and engine news. */
function pageIpc() {
  const page = new EventEmitter();
  const ipc = {
    invoke: vi.fn(async () => 'ok'),
    send: vi.fn(),
    on: (channel: string, listener: (...args: any[]) => void) => page.on(channel, listener),
  };
  return {
    ipc,
    /** What main does once the platform serves: a new port to it, its other end served by `platform`. */
    handPort(platform: Pick<Platform, 'app'>) {
      const { port1, port2 } = new NodeMessageChannel();
      servePort(platform, mainPort(port2), () => BASE);
      page.emit(CHANNELS.port, { ports: [port1] });
      return port2;
    },
    engine: (state: object) => page.emit(CHANNELS.engine, { ports: [] }, state),
  };
}

describe('preload', () => {
  beforeEach(() => resetFakeElectron());

  it('exposes exactly the AgentDeskBridge methods as window.agentDesk, and asks for its port', async () => {
    vi.resetModules();
    await import('../../src-preload/index.js');
    const { exposeInMainWorld } = fakeElectron.contextBridge;
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = exposeInMainWorld.mock.calls[0] as unknown as [string, Record<string, unknown>];
    expect(name).toBe('agentDesk');
    expect(Object.keys(api).sort()).toEqual(['appInfo', 'onEngine', 'openFiles', 'request', 'setLocale', 'stream']);
    for (const v of Object.values(api)) expect(typeof v).toBe('function');
    expect(fakeElectron.ipcRenderer.send).toHaveBeenCalledWith(CHANNELS.connect);
  });

  it('pulls nothing into the sandboxed preload but electron and its own bridge files', () => {
    // A sandboxed preload can require only 'electron' (and a few polyfills): no Node modules, no packages.
    const importsOf = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[^'"]*['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]);
    expect(importsOf('src-preload/index.ts')).toEqual(['electron', '../src-main/desktop/bridge-client']);
    expect(importsOf('src-main/desktop/bridge-client.ts')).toEqual(['./channels', './words']);
    expect(importsOf('src-main/desktop/channels.ts')).toEqual(['./words']);
    // The shell's words are plain catalog objects, bundled into the preload.
    expect(importsOf('src-main/desktop/words.ts')).toEqual(['../../src-renderer/i18n/en/desktop.js', '../../src-renderer/i18n/pt-BR/desktop.js']);
    expect(importsOf('src-renderer/i18n/en/desktop.ts')).toEqual([]);
    expect(importsOf('src-renderer/i18n/pt-BR/desktop.ts')).toEqual([]);
  });

  it('requests and streams over one port straight to the platform side, calls made before the port arrive wait for it', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const page = pageIpc();
    const bridge = createBridge(page.ipc as any);
    expect(page.ipc.send).toHaveBeenCalledWith(CHANNELS.connect);
    const early = bridge.request({ method: 'GET', path: '/api/who' });
    const chunks: string[] = [];
    const streamed = new Promise<number>((resolve) => bridge.stream({ method: 'GET', path: '/api/stream' }, (t) => chunks.push(t), (s) => resolve(s)));
    page.handPort(sseApp(5));
    expect(JSON.parse((await early).body)).toEqual({ env: { userId: 1, via: 'bridge' } });
    expect(await streamed).toBe(200);
    expect([...chunks.join('').matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).n)).toEqual([1, 2, 3, 4, 5]);
  });

  it('cancels a stream by id: the platform stops reading it', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const page = pageIpc();
    const bridge = createBridge(page.ipc as any);
    const onAbort = vi.fn();
    page.handPort(sseApp(400, onAbort, NEVER));
    const onEnd = vi.fn();
    let first!: () => void;
    const started = new Promise<void>((r) => (first = r));
    const cancel = bridge.stream({ method: 'GET', path: '/api/stream' }, () => first(), onEnd);
    await started;
    cancel();
    await until('the read to stop', () => onAbort.mock.calls.length > 0);
    expect(onEnd).not.toHaveBeenCalled();
  });

  it('when the platform stops: calls under way fail with a sentence, the page hears it, calls made meanwhile wait for the new port', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const page = pageIpc();
    const bridge = createBridge(page.ipc as any);
    const states: unknown[] = [];
    bridge.onEngine!((s) => states.push(s));
    // A platform that never answers: the calls are under way when it stops.
    const silent = { app: { fetch: () => new Promise<Response>(() => {}) } } as unknown as Pick<Platform, 'app'>;
    page.handPort(silent);
    const pending = bridge.request({ method: 'GET', path: '/api/who' });
    const ended = new Promise<[number, string | undefined]>((resolve) => bridge.stream({ method: 'GET', path: '/api/stream' }, () => {}, (s, e) => resolve([s, e])));
    page.engine({ running: false, message: ENGINE_RESTARTING });
    await expect(pending).rejects.toThrow(ENGINE_STOPPED_ERROR);
    expect(await ended).toEqual([0, ENGINE_STOPPED_ERROR]);
    const meanwhile = bridge.request({ method: 'GET', path: '/api/who' });
    page.handPort(sseApp(1));
    expect((await meanwhile).status).toBe(200);
    expect(states).toEqual([{ running: false, message: ENGINE_RESTARTING }, { running: true }]);
    // A listener added while it is down hears so at once.
    page.engine({ running: false, message: ENGINE_RESTARTING });
    const late = vi.fn();
    bridge.onEngine!(late);
    expect(late).toHaveBeenCalledWith({ running: false, message: ENGINE_RESTARTING });
  });

  it('forwards openFiles and appInfo to their channels', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const page = pageIpc();
    const bridge = createBridge(page.ipc as any);
    await bridge.openFiles();
    await bridge.appInfo();
    expect(page.ipc.invoke.mock.calls).toEqual([[CHANNELS.openFiles], [CHANNELS.appInfo]]);
  });
});
