import fs from 'node:fs';
import path from 'node:path';
import { MessageChannel as NodeMessageChannel, type MessagePort as NodeMessagePort } from 'node:worker_threads';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron } from './fake-electron.js';
import { closePlatform, makePlatform, tempDir, BASE } from '../api/helpers.js';
import {
  BRIDGE_PRINCIPAL, handleBridgeRequest, isTrustedSender, readPickedFiles, registerBridge, streamOverPort, toPlatformRequest, BridgeInputError,
} from '../../src-main/desktop/bridge.js';
import { CHANNELS, type StreamMessage } from '../../src-main/desktop/channels.js';
import { isAppUrl } from '../../src-main/desktop/app-protocol.js';
import type { Platform } from '../../src-main/platform/platform.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';

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

/** Collects what the main side posts until the end message (or the port closes). */
function collect(port: NodeMessagePort): Promise<StreamMessage[]> {
  const got: StreamMessage[] = [];
  return new Promise((resolve) => {
    port.on('message', (m: StreamMessage) => {
      got.push(m);
      if (m.type === 'end') {
        port.close();
        resolve(got);
      }
    });
    port.on('close', () => resolve(got));
  });
}

/** An SSE endpoint like the execution stream: numbered events, a little apart. */
function sseApp(events: number, onAbort?: () => void) {
  const app = new Hono();
  app.get('/api/stream', (c) =>
    streamSSE(c, async (s) => {
      s.onAbort(() => onAbort?.());
      for (let i = 1; i <= events; i++) {
        await s.writeSSE({ data: JSON.stringify({ n: i, status: i === events ? 'completed' : 'running' }) });
        await s.sleep(5);
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

describe('bridge streams over a MessagePort', () => {
  it('delivers SSE chunks in order, then one end with the status', async () => {
    const { port1, port2 } = new NodeMessageChannel();
    const got = collect(port1);
    await streamOverPort(sseApp(6), { method: 'GET', path: '/api/stream' }, BASE, mainPort(port2));
    const msgs = await got;
    const end = msgs.at(-1)!;
    expect(end).toEqual({ type: 'end', status: 200 });
    expect(msgs.slice(0, -1).every((m) => m.type === 'chunk')).toBe(true);
    const text = msgs.map((m) => (m.type === 'chunk' ? m.text : '')).join('');
    const ns = [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).n);
    expect(ns).toEqual([1, 2, 3, 4, 5, 6]);
    expect(msgs.length).toBeGreaterThan(2); // streamed, not one buffered blob
  });

  it('stops reading when the renderer cancels, and closes the port', async () => {
    const onAbort = vi.fn();
    const { port1, port2 } = new NodeMessageChannel();
    const got: StreamMessage[] = [];
    port1.on('message', (m: StreamMessage) => {
      got.push(m);
      if (got.length === 1) port1.postMessage({ type: 'cancel' });
    });
    await streamOverPort(sseApp(200, onAbort), { method: 'GET', path: '/api/stream' }, BASE, mainPort(port2));
    await vi.waitFor(() => expect(onAbort).toHaveBeenCalled());
    expect(got.length).toBeLessThan(50);
    expect(got.some((m) => m.type === 'end')).toBe(false);
    port1.close();
  });

  it('streams an error answer as its body and status', async () => {
    const { port1, port2 } = new NodeMessageChannel();
    const got = collect(port1);
    await streamOverPort(sseApp(1), { method: 'GET', path: '/api/nothing' }, BASE, mainPort(port2));
    const msgs = await got;
    expect(msgs.at(-1)).toEqual({ type: 'end', status: 404 });
    const bad = new NodeMessageChannel();
    const got2 = collect(bad.port1);
    await streamOverPort(sseApp(1), { method: 'GET', path: '//x' }, BASE, mainPort(bad.port2));
    expect((await got2).at(-1)).toEqual({ type: 'end', status: 400 });
  });

  it('passes the trusted principal on streams too', async () => {
    const { port1, port2 } = new NodeMessageChannel();
    const got = collect(port1);
    await streamOverPort(sseApp(1), { method: 'GET', path: '/api/who' }, BASE, mainPort(port2));
    const text = (await got).map((m) => (m.type === 'chunk' ? m.text : '')).join('');
    expect(JSON.parse(text)).toEqual({ env: { userId: 1, via: 'bridge' } });
  });
});

describe('a real execution through the bridge', () => {
  it('streams the model output as the spec SSE events, ending with completed', async () => {
    const fake = await startFakeOpenAI({ reply: 'Hello from the desktop bridge stream.', delayMs: 2 });
    const p = makePlatform({ env: { AGENT_DESK_OPENAI_BASE_URL: fake.url, AGENT_DESK_OPENAI_API_KEY: 'sk-fake', AGENT_DESK_OLLAMA_AUTODETECT: '0' } });
    try {
      const agents = JSON.parse((await handleBridgeRequest(p, { method: 'GET', path: '/api/agents?type=chat' }, BASE)).body);
      const chat = agents.data[0];
      const model = chat.questions.find((q: any) => q.name === 'model').options.find((m: string) => m.startsWith('gpt-'));
      const { port1, port2 } = new NodeMessageChannel();
      const got = collect(port1);
      const body = JSON.stringify({ stream: true, answers: { temperature: '0', model, tools: 'no-tools' }, messages: [{ role: 'user', content: 'hi' }] });
      await streamOverPort(p, { method: 'POST', path: `/api/agents/${chat.id}/execute`, headers: { 'content-type': 'application/json' }, body }, BASE, mainPort(port2));
      const msgs = await got;
      expect(msgs.at(-1)).toEqual({ type: 'end', status: 200 });
      const events = [...msgs.map((m) => (m.type === 'chunk' ? m.text : '')).join('').matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]));
      expect(events.at(-1)).toMatchObject({ status: 'completed', output: '' });
      expect(typeof events.at(-1).credits).toBe('number');
      expect(events.filter((e) => e.status === 'running').map((e) => e.output).join('')).toBe('Hello from the desktop bridge stream.');
      // Stored as the bridge user's own execution.
      const stored = JSON.parse((await handleBridgeRequest(p, { method: 'GET', path: `/api/agent-responses/${events[0].id}` }, BASE)).body);
      expect(stored).toMatchObject({ status: 'succeeded', output: 'Hello from the desktop bridge stream.' });
    } finally {
      await closePlatform(p);
      await fake.close();
    }
  });
});

describe('IPC handlers', () => {
  const ours = { senderFrame: { url: 'agent-desk://app/index.html', parent: null }, sender: {} };
  const iframe = { senderFrame: { url: 'agent-desk://app/index.html', parent: {} }, sender: {} };
  const evil = { senderFrame: { url: 'https://evil.example/', parent: null }, sender: {} };
  const gone = { senderFrame: null, sender: {} };
  let dir: string;
  beforeEach(() => {
    resetFakeElectron();
    dir = tempDir('agent-desk-pick-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function register(extra: Partial<Parameters<typeof registerBridge>[0]> = {}) {
    const { ipcMain, dialog } = fakeElectron;
    const platform = { ...sseApp(3), config: { maxUploadBytes: 1024 } } as any;
    return registerBridge({
      ipcMain: ipcMain as any,
      dialog: dialog as any,
      platform,
      isAppUrl: (u) => isAppUrl(u),
      baseUrl: () => BASE,
      appInfo: () => ({ version: '0.1.0', platform: 'linux', apiUrl: BASE, dataDir: '/data' }),
      windowOf: () => null,
      ...extra,
    });
  }

  it('checks the sender: only the app page, top frame, may call', async () => {
    expect(isTrustedSender(ours.senderFrame, (u) => isAppUrl(u))).toBe(true);
    for (const e of [iframe, evil, gone]) expect(isTrustedSender(e.senderFrame as any, (u) => isAppUrl(u))).toBe(false);
    register();
    const { ipcMain } = fakeElectron;
    for (const ch of [CHANNELS.request, CHANNELS.openFiles, CHANNELS.appInfo]) {
      for (const e of [iframe, evil, gone]) await expect(ipcMain.invoke(ch, e, { method: 'GET', path: '/api/who' })).rejects.toThrow(/Refused/);
    }
    expect(await ipcMain.invoke(CHANNELS.appInfo, ours)).toMatchObject({ apiUrl: BASE });
    const who = (await ipcMain.invoke(CHANNELS.request, ours, { method: 'GET', path: '/api/who' })) as any;
    expect(JSON.parse(who.body).env).toEqual({ userId: 1, via: 'bridge' });
  });

  it('refuses a stream from a foreign sender on its port', async () => {
    register();
    const { port1, port2 } = new NodeMessageChannel();
    const got = collect(port1);
    fakeElectron.ipcMain.emit(CHANNELS.stream, { ...evil, ports: [mainPort(port2)] }, { method: 'GET', path: '/api/stream' });
    expect(await got).toEqual([{ type: 'end', status: 403, error: expect.stringMatching(/Refused/) }]);
    const ok = new NodeMessageChannel();
    const got2 = collect(ok.port1);
    fakeElectron.ipcMain.emit(CHANNELS.stream, { ...ours, ports: [mainPort(ok.port2)] }, { method: 'GET', path: '/api/stream' });
    expect((await got2).at(-1)).toEqual({ type: 'end', status: 200 });
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
    const off = register();
    off();
    expect(fakeElectron.ipcMain.handlers.size).toBe(0);
    expect(fakeElectron.ipcMain.listenerCount(CHANNELS.stream)).toBe(0);
  });
});

describe('preload', () => {
  beforeEach(() => resetFakeElectron());

  it('exposes exactly the AgentDeskBridge methods as window.agentDesk', async () => {
    vi.resetModules();
    await import('../../src-preload/index.js');
    const { exposeInMainWorld } = fakeElectron.contextBridge;
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = exposeInMainWorld.mock.calls[0] as unknown as [string, Record<string, unknown>];
    expect(name).toBe('agentDesk');
    expect(Object.keys(api).sort()).toEqual(['appInfo', 'openFiles', 'request', 'stream']);
    for (const v of Object.values(api)) expect(typeof v).toBe('function');
  });

  it('pulls nothing into the sandboxed preload but electron and its own bridge files', () => {
    // A sandboxed preload can require only 'electron' (and a few polyfills): no Node modules, no packages.
    const importsOf = (file: string) => [...fs.readFileSync(file, 'utf8').matchAll(/^import\s+(type\s+)?[^'"]*['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]);
    expect(importsOf('src-preload/index.ts')).toEqual(['electron', '../src-main/desktop/bridge-client']);
    expect(importsOf('src-main/desktop/bridge-client.ts')).toEqual(['./channels']);
    expect(importsOf('src-main/desktop/channels.ts')).toEqual([]);
  });

  it('streams end to end: preload port ↔ main bridge, chunks in order, then onEnd', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const platform = sseApp(5);
    const ipc = {
      invoke: vi.fn(),
      // What Electron does with the transferred port: the main side gets it as event.ports[0].
      postMessage: vi.fn((channel: string, req: unknown, ports: MessagePort[]) => {
        expect(channel).toBe(CHANNELS.stream);
        void streamOverPort(platform, req, BASE, mainPort(ports[0] as unknown as NodeMessagePort));
      }),
    };
    const bridge = createBridge(ipc as any);
    const chunks: string[] = [];
    const status = await new Promise<number>((resolve) => bridge.stream({ method: 'GET', path: '/api/stream' }, (t) => chunks.push(t), (s) => resolve(s)));
    expect(status).toBe(200);
    const ns = [...chunks.join('').matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]).n);
    expect(ns).toEqual([1, 2, 3, 4, 5]);
  });

  it('forwards request, openFiles and appInfo to their channels', async () => {
    const { createBridge } = await import('../../src-main/desktop/bridge-client.js');
    const ipc = { invoke: vi.fn(async () => 'ok'), postMessage: vi.fn() };
    const bridge = createBridge(ipc as any);
    await bridge.request({ method: 'GET', path: '/api/agents' });
    await bridge.openFiles();
    await bridge.appInfo();
    expect(ipc.invoke.mock.calls).toEqual([[CHANNELS.request, { method: 'GET', path: '/api/agents' }], [CHANNELS.openFiles], [CHANNELS.appInfo]]);
  });
});
