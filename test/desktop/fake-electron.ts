import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
// @ts-expect-error a plain .mjs stand-in shared with the built-app driver (no types)
import { MessageChannelMain, utilityProcess, utilityProcesses, webPort } from './support/fake-utility.mjs';

/**
 * A stand-in for the `electron` module (the binary is not installed in CI): just enough of
 * app, BrowserWindow, ipcMain, session, protocol, Menu, shell, dialog, safeStorage, the
 * preload side, and utilityProcess / MessageChannelMain (support/fake-utility.mjs: real child
 * processes with relayed ports), recording what the shell does so tests can check it.
 * Use: vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron)
 */

export interface FakeEvent {
  defaultPrevented: boolean;
  preventDefault(): void;
}
export const fakeEvent = (): FakeEvent => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true;
  },
});

class FakeApp extends EventEmitter {
  name = 'agent-desk';
  isPackaged = false;
  lock = true;
  quitted = false;
  appPath = path.resolve('.');
  readonly paths: Record<string, string> = { appData: process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config') };
  setName = vi.fn((n: string) => {
    this.name = n;
  });
  getName = () => this.name;
  setPath = vi.fn((k: string, v: string) => {
    this.paths[k] = v;
  });
  getPath = (k: string) => this.paths[k] ?? path.join(this.paths.appData, this.name);
  getAppPath = () => this.appPath;
  getVersion = () => '0.1.0';
  requestSingleInstanceLock = vi.fn(() => this.lock);
  whenReady = vi.fn(async () => {});
  isReady = () => true;
  exit = vi.fn();
  /** Like Electron: before-quit may be prevented; otherwise the app quits. */
  quit = vi.fn(() => {
    const ev = fakeEvent();
    this.emit('before-quit', ev);
    if (!ev.defaultPrevented) this.quitted = true;
  });
  reset() {
    this.removeAllListeners();
    this.quitted = false;
    this.lock = true;
    this.isPackaged = false;
    this.name = 'agent-desk';
    for (const k of Object.keys(this.paths)) if (k !== 'appData') delete this.paths[k];
  }
}

export class FakeWebContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler = vi.fn((h: (d: { url: string }) => { action: string }) => {
    this.openHandler = h;
  });
  /** What the page's preload hears (its ipcRenderer.on). */
  readonly toRenderer = new EventEmitter();
  destroyed = false;
  isDestroyed = () => this.destroyed;
  send = vi.fn((channel: string, ...args: unknown[]) => void this.toRenderer.emit(channel, { ports: [] }, ...args));
  postMessage = vi.fn((channel: string, message: unknown, transfer: unknown[] = []) => void this.toRenderer.emit(channel, { ports: transfer.map(webPort) }, message));
}

/**
 * The ipcRenderer a page's preload would have, for a page whose main-process side is `contents`
 * and whose frame is `frame` (what the main process checks before it hands out a port).
 */
export function rendererIpc(contents: FakeWebContents, frame: { url: string; parent: unknown }) {
  const event = () => ({ sender: contents, senderFrame: frame });
  return {
    invoke: (channel: string, ...args: unknown[]) => fakeElectron.ipcMain.invoke(channel, event(), ...args),
    send: (channel: string, ...args: unknown[]) => void fakeElectron.ipcMain.emit(channel, event(), ...args),
    on: (channel: string, listener: (...args: any[]) => void) => contents.toRenderer.on(channel, listener),
  };
}

class FakeBrowserWindow extends EventEmitter {
  static all: FakeBrowserWindow[] = [];
  static getAllWindows = () => FakeBrowserWindow.all;
  static fromWebContents = (wc: unknown) => FakeBrowserWindow.all.find((w) => w.webContents === wc) ?? null;
  webContents = new FakeWebContents();
  loadURL = vi.fn(async (_url: string) => {});
  show = vi.fn();
  focus = vi.fn();
  restore = vi.fn();
  isMinimized = () => false;
  isDestroyed = () => false;
  constructor(readonly options: Record<string, any>) {
    super();
    FakeBrowserWindow.all.push(this);
  }
}

class FakeIpcMain extends EventEmitter {
  handlers = new Map<string, (...args: any[]) => unknown>();
  handle = vi.fn((ch: string, fn: (...args: any[]) => unknown) => {
    if (this.handlers.has(ch)) throw new Error(`Attempted to register a second handler for '${ch}'`);
    this.handlers.set(ch, fn);
  });
  removeHandler = vi.fn((ch: string) => void this.handlers.delete(ch));
  /** What ipcRenderer.invoke would do. */
  async invoke(ch: string, event: unknown, ...args: unknown[]) {
    const h = this.handlers.get(ch);
    if (!h) throw new Error(`No handler registered for '${ch}'`);
    return h(event, ...args);
  }
}

const session = {
  headersListener: null as null | ((details: any, cb: (r: any) => void) => void),
  requestHandler: null as null | ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void),
  checkHandler: null as null | ((wc: unknown, permission: string) => boolean),
  webRequest: {
    onHeadersReceived: vi.fn((fn: any) => {
      session.headersListener = fn;
    }),
  },
  setPermissionRequestHandler: vi.fn((fn: any) => {
    session.requestHandler = fn;
  }),
  setPermissionCheckHandler: vi.fn((fn: any) => {
    session.checkHandler = fn;
  }),
  deviceHandler: null as null | ((details: unknown) => boolean),
  setDevicePermissionHandler: vi.fn((fn: any) => {
    session.deviceHandler = fn;
  }),
};

const safeStorageState = { available: true, backend: 'gnome_libsecret' };

export const fakeElectron = {
  app: new FakeApp(),
  BrowserWindow: FakeBrowserWindow,
  ipcMain: new FakeIpcMain(),
  session: { defaultSession: session },
  protocol: {
    registerSchemesAsPrivileged: vi.fn(),
    handlers: new Map<string, (req: Request) => Promise<Response>>(),
    handle: vi.fn((scheme: string, fn: (req: Request) => Promise<Response>) => void fakeElectron.protocol.handlers.set(scheme, fn)),
  },
  Menu: { buildFromTemplate: vi.fn((template: unknown[]) => ({ template })), setApplicationMenu: vi.fn() },
  shell: { openExternal: vi.fn(async (_url: string) => {}), openPath: vi.fn(async (_p: string) => '') },
  dialog: { showOpenDialog: vi.fn(async (..._a: unknown[]) => ({ canceled: true, filePaths: [] as string[] })), showErrorBox: vi.fn() },
  safeStorage: {
    state: safeStorageState,
    isEncryptionAvailable: () => safeStorageState.available,
    getSelectedStorageBackend: () => safeStorageState.backend as 'gnome_libsecret',
    // Reversible but not the identity, so a test can tell sealed from plain.
    encryptString: (s: string) => Buffer.from(`enc:${s}`).reverse(),
    decryptString: (b: Buffer) => {
      const s = Buffer.from(b).reverse().toString();
      if (!s.startsWith('enc:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return s.slice(4);
    },
  },
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: { invoke: vi.fn(), send: vi.fn(), on: vi.fn() },
  utilityProcess: utilityProcess as { fork(modulePath: string, args?: string[], options?: Record<string, unknown>): any },
  MessageChannelMain: MessageChannelMain as new () => { port1: any; port2: any },
  /** Every utility process forked (the platform, its readers), with `modulePath`, `pid`, `exited`. */
  utilityProcesses: utilityProcesses as { modulePath: string; pid: number; exited?: boolean; kill(): boolean }[],
};

export function resetFakeElectron(): void {
  fakeElectron.app.reset();
  fakeElectron.ipcMain.removeAllListeners();
  fakeElectron.ipcMain.handlers.clear();
  FakeBrowserWindow.all = [];
  fakeElectron.utilityProcesses.splice(0);
  fakeElectron.protocol.handlers.clear();
  safeStorageState.available = true;
  safeStorageState.backend = 'gnome_libsecret';
  vi.clearAllMocks();
}

export default fakeElectron;
