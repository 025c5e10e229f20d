import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, fakeEvent, FakeWebContents, rendererIpc, resetFakeElectron } from './fake-electron.js';
import { tempDir, makePlatform, call } from '../api/helpers.js';
import { mainWindowOptions } from '../../src-main/desktop/window.js';
import { expectIsolated } from './isolation.js';
import { appCsp, guardWebContents, installCsp, installPermissionHandlers, isExternalWebUrl } from '../../src-main/desktop/security.js';
import { APP_URL, appProtocolHandler, isAppUrl } from '../../src-main/desktop/app-protocol.js';
import { claimSingleInstance, installGracefulQuit, startDesktop } from '../../src-main/desktop/lifecycle.js';
import { resolveDesktopPaths } from '../../src-main/desktop/paths.js';
import { DATA_KEY_FILE, loadDataKey, openLegacySecrets, safeStorageBox } from '../../src-main/desktop/secrets.js';
import { buildMenuTemplate } from '../../src-main/desktop/menu.js';
import { ApiServer } from '../../src-main/platform/host/api-server.js';
import { CHANNELS } from '../../src-main/desktop/channels.js';
import { createBridge } from '../../src-main/desktop/bridge-client.js';
import { dataKeyBox, legacySealedIn, UNREADABLE_SECRET } from '../../src-main/platform/kernel/secrets.js';
import { findLegacySecrets } from '../../src-main/platform/host/legacy-secrets-store.js';
import { limit, until } from '../fixtures/until.js';
import { defaultDataDir } from '../../src-main/platform/kernel/config.js';
import { createPlatform } from '../../src-main/platform/platform.js';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);

const { app, session } = fakeElectron;
const dirs: string[] = [];
const temp = (prefix?: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};

beforeEach(() => resetFakeElectron());
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('window', () => {
  it('isolates the renderer: context isolation, sandbox, no Node', () => {
    const o = mainWindowOptions('/app/out/preload/index.cjs');
    expectIsolated(o.webPreferences, '/app/out/preload/index.cjs');
    expect(o.show).toBe(false);
  });
});

describe('content security policy', () => {
  it('allows scripts only from the app itself in production', () => {
    const csp = appCsp();
    const directive = (name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `));
    expect(directive('default-src')).toBe("default-src 'self'");
    expect(directive('script-src')).toBe("script-src 'self'");
    expect(directive('connect-src')).toBe("connect-src 'self'");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('relaxes only for the dev server in development', () => {
    const csp = appCsp('http://localhost:5173/');
    expect(csp).toContain("connect-src 'self' ws://localhost:5173");
    expect(csp).not.toContain('*');
  });

  it('replaces any CSP a response brings with the strict one', () => {
    installCsp(session.defaultSession as any, appCsp());
    const cb = vi.fn();
    session.defaultSession.headersListener!({ responseHeaders: { 'content-security-policy': ["default-src *"], 'x-other': ['1'] } }, cb);
    const headers = cb.mock.calls[0][0].responseHeaders;
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['Content-Security-Policy']).toEqual([appCsp()]);
    expect(headers['x-other']).toEqual(['1']);
  });
});

describe('navigation and new windows', () => {
  function guarded() {
    const contents = new FakeWebContents();
    const openExternal = vi.fn();
    guardWebContents(contents as any, { isAppUrl: (u) => isAppUrl(u), openExternal });
    const navigate = (url: string, kind = 'will-navigate') => {
      const ev = fakeEvent();
      contents.emit(kind, ev, url);
      return ev.defaultPrevented;
    };
    return { contents, openExternal, navigate };
  }

  it('keeps the window on the app and sends web links to the system browser', () => {
    const { navigate, openExternal } = guarded();
    expect(navigate('agent-desk://app/index.html#/agents')).toBe(false);
    expect(navigate('https://evil.example/phish')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://evil.example/phish');
    expect(navigate('http://127.0.0.1:8787/login', 'will-redirect')).toBe(true);
  });

  it('a subframe cannot navigate off the app either', () => {
    const { contents, openExternal } = guarded();
    const frameNav = (url: string) => {
      const ev = { ...fakeEvent(), url, isMainFrame: false };
      contents.emit('will-frame-navigate', ev);
      return ev.defaultPrevented;
    };
    expect(frameNav('https://evil.example/frame')).toBe(true);
    expect(frameNav('agent-desk://app/index.html')).toBe(false);
    expect(openExternal).toHaveBeenCalledWith('https://evil.example/frame');
  });

  it('never hands file:, javascript: or other schemes to the OS', () => {
    const { navigate, openExternal } = guarded();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'agent-desk://other/x']) expect(navigate(url)).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('denies every window.open, opening only http(s) targets externally', () => {
    const { contents, openExternal } = guarded();
    expect(contents.openHandler!({ url: 'https://docs.example/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'agent-desk://app/index.html' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///tmp/x' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://docs.example/']]);
  });

  it('refuses webviews', () => {
    const { contents } = guarded();
    const ev = fakeEvent();
    contents.emit('will-attach-webview', ev);
    expect(ev.defaultPrevented).toBe(true);
  });

  it('recognizes external web URLs strictly', () => {
    expect(isExternalWebUrl('https://a.example')).toBe(true);
    expect(isExternalWebUrl('mailto:a@b.c')).toBe(false);
    expect(isExternalWebUrl('not a url')).toBe(false);
  });

  it('treats the dev server as the app only when one is running', () => {
    expect(isAppUrl('http://localhost:5173/#/x', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5173/#/x')).toBe(false);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
  });
});

describe('permissions', () => {
  it('grants nothing but clipboard writes', () => {
    installPermissionHandlers(session.defaultSession as any);
    const ask = (p: string) => {
      const cb = vi.fn();
      session.defaultSession.requestHandler!(null, p, cb);
      return cb.mock.calls[0][0];
    };
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'fullscreen']) expect(ask(p)).toBe(false);
    expect(ask('clipboard-sanitized-write')).toBe(true);
    expect(session.defaultSession.checkHandler!(null, 'media')).toBe(false);
    // WebUSB, WebHID and Web Serial devices: none.
    expect(session.defaultSession.deviceHandler!({ deviceType: 'usb', origin: 'agent-desk://app' })).toBe(false);
  });
});

describe('single instance', () => {
  it('quits a second instance and focuses the first', () => {
    const focus = vi.fn();
    expect(claimSingleInstance(app as any, focus)).toBe(true);
    app.emit('second-instance');
    expect(focus).toHaveBeenCalledTimes(1);

    resetFakeElectron();
    app.lock = false;
    expect(claimSingleInstance(app as any, focus)).toBe(false);
    expect(app.quit).toHaveBeenCalled();
  });
});

describe('graceful quit', () => {
  it('holds the quit until shutdown finished, then quits once for real', async () => {
    let release!: () => void;
    const shutdown = vi.fn(() => new Promise<void>((r) => (release = r)));
    installGracefulQuit(app as any, shutdown);
    app.quit();
    expect(app.quitted).toBe(false);
    app.quit(); // a second request while closing is held too
    expect(shutdown).toHaveBeenCalledTimes(1);
    release();
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(shutdown).toHaveBeenCalledTimes(1);
  });

  it('still quits when shutdown fails, and reports why', async () => {
    const onError = vi.fn();
    installGracefulQuit(app as any, async () => Promise.reject(new Error('disk gone')), onError);
    app.quit();
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(onError.mock.calls[0][0].message).toBe('disk gone');
  });
});

describe('paths', () => {
  it('uses the same data dir as npm run serve', () => {
    const p = resolveDesktopPaths({});
    expect(app.setName).toHaveBeenCalledWith('Agent Desk');
    expect(p.dataDir).toBe(path.join(app.paths.appData, 'Agent Desk'));
    if (process.platform === 'linux') expect(p.dataDir).toBe(defaultDataDir());
    expect(p.preload).toBe(path.resolve('out/preload/index.cjs'));
    expect(p.rendererDir).toBe(path.resolve('out/renderer'));
    expect(p.resourcesDir).toBe(path.resolve('resources'));
  });

  it('honours AGENT_DESK_DATA_DIR and the packaged resources path', () => {
    app.isPackaged = true;
    // Electron sets process.resourcesPath; plain Node has none.
    (process as any).resourcesPath = '/opt/Agent Desk/resources';
    try {
      const p = resolveDesktopPaths({ AGENT_DESK_DATA_DIR: '/tmp/agent-desk-elsewhere' });
      expect(p.dataDir).toBe('/tmp/agent-desk-elsewhere');
      expect(p.resourcesDir).toBe('/opt/Agent Desk/resources/resources');
    } finally {
      delete (process as any).resourcesPath;
    }
  });
});

describe('secrets: the keychain in main, the sealing in the platform', () => {
  const ss = () => fakeElectron.safeStorage as any;

  it('keeps the data key sealed by the keychain in the data dir (user-only), the same key on the next start', () => {
    const dir = temp();
    const key = loadDataKey(dir, ss(), 'linux')!;
    expect(key).toHaveLength(32);
    const file = path.join(dir, DATA_KEY_FILE);
    const stored = fs.readFileSync(file, 'utf8');
    expect(stored.startsWith('safe:')).toBe(true);
    expect(stored).not.toContain(key.toString('base64'));
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadDataKey(dir, ss(), 'linux')!.equals(key)).toBe(true);
  });

  it('seals in the platform with that key: not readable without it, a clear sentence when it changed', () => {
    const key = loadDataKey(temp(), ss(), 'linux')!;
    const box = dataKeyBox(key);
    expect(box.encrypted).toBe(true);
    const sealed = box.seal('sk-secret');
    expect(sealed.startsWith('dk1:')).toBe(true);
    expect(sealed).not.toContain('sk-secret');
    expect(box.seal('sk-secret')).not.toBe(sealed); // a fresh IV each time
    expect(box.open(sealed)).toBe('sk-secret');
    expect(box.open('plain:older')).toBe('older'); // stored before encryption was available
    expect(() => dataKeyBox(Buffer.alloc(32, 7)).open(sealed)).toThrow(UNREADABLE_SECRET);
  });

  it('replaces a key the keychain can no longer open, setting the old one aside', () => {
    const dir = temp();
    fs.writeFileSync(path.join(dir, DATA_KEY_FILE), 'safe:AAAA');
    const key = loadDataKey(dir, ss(), 'linux');
    expect(key).toHaveLength(32);
    expect(fs.readdirSync(dir).some((f) => f.startsWith(`${DATA_KEY_FILE}.unreadable-`))).toBe(true);
  });

  it("says so instead of pretending when Linux has no keyring (basic_text): no key, secrets stored plainly", () => {
    fakeElectron.safeStorage.state.backend = 'basic_text';
    const dir = temp();
    expect(loadDataKey(dir, ss(), 'linux')).toBeNull();
    expect(fs.existsSync(path.join(dir, DATA_KEY_FILE))).toBe(false);
    const box = dataKeyBox(null);
    expect(box.encrypted).toBe(false);
    expect(box.seal('x')).toBe('plain:x');
  });

  it('opens what an older version sealed with the keychain directly, found in the database before the platform starts', async () => {
    const old = safeStorageBox(ss(), 'linux');
    const legacy = old.seal('sk-from-before');
    expect(old.open(legacy)).toBe('sk-from-before');
    const p = makePlatform();
    dirs.push(p.dir);
    p.services.settings.set('providers.list' as any, [{ id: 'x', api_key_sealed: legacy }] as any);
    await p.close();
    const found = findLegacySecrets(p.dir);
    expect(found).toEqual([legacy]);
    expect(legacySealedIn([`{"k":"${legacy}"}`, null, 'safe:AAAA plain'])).toEqual([legacy, 'safe:AAAA']);
    const opened = openLegacySecrets([...found, 'safe:AAAA', 42], ss(), 'linux');
    expect(opened).toEqual(['sk-from-before', null, null]);
    const box = dataKeyBox(Buffer.alloc(32, 1), new Map([[legacy, opened[0]!]]));
    expect(box.open(legacy)).toBe('sk-from-before');
    expect(() => box.open('safe:AAAA')).toThrow(/Enter it again in Settings/);
  });
});

describe('menu', () => {
  it('offers the data folder and API docs; dev tools only in development', async () => {
    const openExternal = vi.fn();
    const openDataDir = vi.fn();
    const t = buildMenuTemplate({ isMac: false, dev: false, apiUrl: async () => 'http://127.0.0.1:8787', openExternal, openDataDir });
    const file = t.find((m) => m.label === 'File')!.submenu as any[];
    file.find((i) => i.label === 'Open Data Folder').click();
    file.find((i) => i.label === 'Open API Docs in Browser').click();
    expect(openDataDir).toHaveBeenCalled();
    // The URL is asked of the platform process.
    await vi.waitFor(() => expect(openExternal).toHaveBeenCalledWith('http://127.0.0.1:8787/api/docs'));
    const roles = JSON.stringify(t);
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('appMenu');
    const dev = JSON.stringify(buildMenuTemplate({ isMac: true, dev: true, apiUrl: async () => null, openExternal, openDataDir }));
    expect(dev).toContain('toggleDevTools');
    expect(dev).toContain('appMenu');
  });
});

describe('agent-desk:// protocol', () => {
  it('serves the renderer folder with the CSP, and nothing outside it', async () => {
    const dir = temp('agent-desk-renderer-');
    fs.writeFileSync(path.join(dir, 'index.html'), '<html>app</html>');
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'assets', 'a.js'), 'x');
    const handle = appProtocolHandler(dir, appCsp());
    const index = await handle(new Request(APP_URL));
    expect(await index.text()).toBe('<html>app</html>');
    expect(index.headers.get('content-security-policy')).toBe(appCsp());
    expect((await handle(new Request('agent-desk://app/assets/a.js'))).headers.get('content-type')).toMatch(/javascript/);
    expect((await handle(new Request('agent-desk://app/..%2f..%2f..%2fetc%2fpasswd'))).status).toBe(404);
    expect((await handle(new Request('agent-desk://other/index.html'))).status).toBe(404);
    expect((await handle(new Request('agent-desk://app/assets/none.js'))).status).toBe(404);
  });
});

describe('localhost API server', () => {
  it('listens per settings, falls back when the port is taken, follows changes, leaves the platform open', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;
    const p = makePlatform();
    dirs.push(p.dir);
    const api = new ApiServer(p);
    try {
      p.services.settings.set('localhost.port', taken);
      await api.start();
      expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(api.url).not.toBe(`http://127.0.0.1:${taken}`);
      expect(api.fallbackFrom).toBe(taken);
      const res = await fetch(`${api.url}/api/agents`, { headers: { authorization: 'Bearer test-key-0123456789' } });
      expect(res.status).toBe(200);

      const off = await call(p, 'PUT', '/api/settings/localhost', { body: { enabled: false } });
      expect(off.status).toBe(200);
      await api.apply();
      expect(api.url).toBeNull();

      await call(p, 'PUT', '/api/settings/localhost', { body: { enabled: true } });
      await api.apply();
      const url = api.url;
      expect(url).not.toBeNull();
      // Quit: new connections are refused while the platform finishes its work.
      let refusedDuringFinish = false;
      await api.stop(async () => {
        refusedDuringFinish = await fetch(`${url}/api/agents`).then(
          () => false,
          () => true,
        );
      });
      expect(refusedDuringFinish).toBe(true);
      expect(api.url).toBeNull();
      expect(p.db.open).toBe(true);
      await api.apply(); // settings changes after quit do not re-listen
      expect(api.url).toBeNull();
    } finally {
      await api.stop();
      await p.close();
      await new Promise((r) => blocker.close(r));
    }
  });
});

describe('startDesktop (whole shell, fake Electron)', () => {
  it('starts the platform in its own process and a secure window; the page gets a port to it; quit stops the platform', async () => {
    const dataDir = temp();
    // A free port for this run instead of 8787 (shared machine).
    const seed = createPlatform({ dataDir });
    seed.services.settings.set('localhost.port', 0);
    await seed.close();
    const old = process.env.AGENT_DESK_DATA_DIR;
    process.env.AGENT_DESK_DATA_DIR = dataDir;
    let running: Awaited<ReturnType<typeof startDesktop>> = null;
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    try {
      running = await startDesktop();
      expect(running).not.toBeNull();
      const proc = running!.platform;
      // The platform is a utility process of its own, not this one.
      const [child] = fakeElectron.utilityProcesses.filter((u) => /platform-host/.test(u.modulePath));
      expect(child.pid).toBe(proc.pid);
      expect(child.pid).not.toBe(process.pid);
      expect(fakeElectron.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
      expect(fakeElectron.protocol.handlers.has('agent-desk')).toBe(true);
      expect(session.defaultSession.headersListener).not.toBeNull();
      expect(fakeElectron.Menu.setApplicationMenu).toHaveBeenCalled();

      const win = fakeElectron.BrowserWindow.all[0];
      expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
      expect(win.loadURL).toHaveBeenCalledWith('agent-desk://app/index.html');

      // The page's preload asks for its port; requests then go to the platform process directly.
      const own = { url: 'agent-desk://app/index.html#/chat', parent: null };
      const bridge = createBridge(rendererIpc(win.webContents, own) as any);
      const res = await bridge.request({ method: 'GET', path: '/api/app' });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ data_dir: dataDir, secrets_encrypted: true });
      expect(win.webContents.postMessage).toHaveBeenCalledWith(CHANNELS.port, null, [expect.anything()]);
      const info = (await fakeElectron.ipcMain.invoke(CHANNELS.appInfo, { sender: win.webContents, senderFrame: own })) as any;
      expect(info).toMatchObject({ version: '0.1.0', apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), dataDir });
      // The localhost API is served from the platform process too.
      expect((await fetch(`${info.apiUrl}/api/agents`)).status).toBe(401);

      // A foreign page gets no port: its calls never reach the platform.
      const evilContents = new FakeWebContents();
      const evil = createBridge(rendererIpc(evilContents, { url: 'https://evil.example/', parent: null }) as any);
      let answered = false;
      void evil.request({ method: 'GET', path: '/api/agents' }).then(() => (answered = true));
      expect(evilContents.postMessage).not.toHaveBeenCalled();
      await fakeElectron.ipcMain.invoke(CHANNELS.appInfo, { sender: win.webContents, senderFrame: own }); // a round trip later
      expect(answered).toBe(false);
      await expect(fakeElectron.ipcMain.invoke(CHANNELS.appInfo, { sender: evilContents, senderFrame: { url: 'https://evil.example/', parent: null } })).rejects.toThrow(/Refused/);

      // Every new web contents gets the guards.
      const contents = new FakeWebContents();
      app.emit('web-contents-created', {}, contents);
      expect(contents.setWindowOpenHandler).toHaveBeenCalled();

      app.quit();
      await vi.waitFor(() => expect(app.quitted).toBe(true), { timeout: limit(30_000) });
      expect(child.exited).toBe(true);
      // The platform closed its database and freed the data dir: another platform owns it now.
      const next = createPlatform({ dataDir });
      try {
        expect(next.primary).toBe(true);
      } finally {
        await next.close();
      }
    } finally {
      if (old === undefined) delete process.env.AGENT_DESK_DATA_DIR;
      else process.env.AGENT_DESK_DATA_DIR = old;
      for (const u of fakeElectron.utilityProcesses) if (!u.exited) u.kill();
      // Remove only the listeners the shell added (Ctrl+C quits), not the test runner's.
      for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
    }
  });

  it('restarts a platform process that died and hands the page a new port (bounded back-off)', async () => {
    const dataDir = temp();
    const seed = createPlatform({ dataDir });
    seed.services.settings.set('localhost.enabled', false);
    await seed.close();
    const old = process.env.AGENT_DESK_DATA_DIR;
    process.env.AGENT_DESK_DATA_DIR = dataDir;
    const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    try {
      const running = await startDesktop();
      const proc = running!.platform;
      const win = fakeElectron.BrowserWindow.all[0];
      const states: unknown[] = [];
      const bridge = createBridge(rendererIpc(win.webContents, { url: 'agent-desk://app/index.html', parent: null }) as any);
      bridge.onEngine!((st) => states.push(st));
      expect((await bridge.request({ method: 'POST', path: '/api/memories', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ memory: 'kept' }) })).status).toBe(200);
      const first = proc.pid!;
      process.kill(first, 'SIGKILL');
      await until('the platform to run again', () => proc.running && proc.pid !== first);
      await until('the page to hear it', () => states.length === 2);
      expect(states).toEqual([{ running: false, message: "Agent Desk's engine stopped and is restarting…" }, { running: true }]);
      expect(win.webContents.postMessage).toHaveBeenCalledTimes(2); // a port at start, a new one after the restart
      const after = JSON.parse((await bridge.request({ method: 'GET', path: '/api/memories' })).body);
      expect(after.memories.map((m: { memory: string }) => m.memory)).toEqual(['kept']);
      app.quit();
      await vi.waitFor(() => expect(app.quitted).toBe(true), { timeout: limit(30_000) });
    } finally {
      if (old === undefined) delete process.env.AGENT_DESK_DATA_DIR;
      else process.env.AGENT_DESK_DATA_DIR = old;
      for (const u of fakeElectron.utilityProcesses) if (!u.exited) u.kill();
      for (const sig of ['SIGINT', 'SIGTERM'] as const) for (const l of process.listeners(sig)) if (!before[sig].includes(l)) process.off(sig, l);
    }
  });

  it('exits in a second instance without starting anything', async () => {
    app.lock = false;
    const old = process.env.AGENT_DESK_DATA_DIR;
    process.env.AGENT_DESK_DATA_DIR = temp();
    try {
      expect(await startDesktop()).toBeNull();
      expect(fakeElectron.BrowserWindow.all).toHaveLength(0);
      expect(app.quit).toHaveBeenCalled();
    } finally {
      if (old === undefined) delete process.env.AGENT_DESK_DATA_DIR;
      else process.env.AGENT_DESK_DATA_DIR = old;
    }
  });
});
