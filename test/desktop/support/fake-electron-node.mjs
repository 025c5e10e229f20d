// A stand-in for the `electron` module in a plain Node process (no Electron binary can be
// downloaded here), for loading the *built* out/main: just enough of app, BrowserWindow,
// ipcMain, session, protocol, Menu, shell, dialog, safeStorage, contextBridge and ipcRenderer, and
// utilityProcess / MessageChannelMain (support/fake-utility.mjs: real child processes, relayed ports).
// Everything the shell does is recorded on `state` for the driver to check.
import { EventEmitter } from 'node:events';
import { MessageChannelMain, utilityProcess, utilityProcesses, webPort } from './fake-utility.mjs';
import os from 'node:os';
import path from 'node:path';

export const state = { windows: [], errorBoxes: [], exposed: {}, menus: 0, schemes: [], protocolHandlers: new Map(), exitCode: null, utilityProcesses };
export { MessageChannelMain, utilityProcess };

class App extends EventEmitter {
  isPackaged = process.env.FAKE_ELECTRON_PACKAGED === '1';
  #name = 'agent-desk';
  #paths = { appData: path.join(os.tmpdir(), 'fake-appdata'), logs: process.env.FAKE_ELECTRON_LOGS ?? path.join(os.tmpdir(), 'fake-logs') };
  #ready = false;
  setName(n) { this.#name = n; }
  getName() { return this.#name; }
  setPath(k, v) { this.#paths[k] = v; }
  getPath(k) { return this.#paths[k] ?? path.join(this.#paths.appData, this.#name); }
  getAppPath() { return process.env.FAKE_ELECTRON_APP_PATH ?? process.cwd(); }
  getVersion() { return '0.1.0'; }
  requestSingleInstanceLock() { return true; }
  async whenReady() { this.#ready = true; }
  isReady() { return this.#ready; }
  exit(code) { state.exitCode = code; this.emit('fake-exit', code); }
  quit() {
    const ev = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    this.emit('before-quit', ev);
    if (!ev.defaultPrevented) this.emit('fake-quitted');
  }
}
export const app = new App();

/** What the page's preload hears (ipcRenderer.on): webContents.send and webContents.postMessage. */
const toRenderer = new EventEmitter();
class WebContents extends EventEmitter {
  send(channel, ...args) { toRenderer.emit(channel, { sender: null, ports: [] }, ...args); }
  postMessage(channel, message, transfer = []) { toRenderer.emit(channel, { sender: null, ports: transfer.map(webPort) }, message); }
  isDestroyed() { return false; }
  setWindowOpenHandler(h) { this.openHandler = h; }
}
export class BrowserWindow extends EventEmitter {
  static getAllWindows() { return state.windows; }
  static fromWebContents(wc) { return state.windows.find((w) => w.webContents === wc) ?? null; }
  webContents = new WebContents();
  constructor(options) { super(); this.options = options; state.windows.push(this); }
  async loadURL(url) { this.url = url; }
  show() {}
  focus() {}
  restore() {}
  isMinimized() { return false; }
  isDestroyed() { return false; }
}

class IpcMain extends EventEmitter {
  handlers = new Map();
  handle(ch, fn) { this.handlers.set(ch, fn); }
  removeHandler(ch) { this.handlers.delete(ch); }
}
export const ipcMain = new IpcMain();

const defaultSession = {
  webRequest: { onHeadersReceived(fn) { defaultSession.headers = fn; } },
  setPermissionRequestHandler(fn) { defaultSession.permissionRequest = fn; },
  setPermissionCheckHandler(fn) { defaultSession.permissionCheck = fn; },
  setDevicePermissionHandler(fn) { defaultSession.devicePermission = fn; },
};
export const session = { defaultSession };
export const protocol = {
  registerSchemesAsPrivileged(s) { state.schemes.push(...s); },
  handle(scheme, fn) { state.protocolHandlers.set(scheme, fn); },
};
export const Menu = { buildFromTemplate: (template) => ({ template }), setApplicationMenu: () => { state.menus++; } };
export const shell = { openExternal: async () => {}, openPath: async () => '' };
export const dialog = {
  showErrorBox: (title, content) => state.errorBoxes.push({ title, content }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
};
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (s) => Buffer.from(`enc:${s}`).reverse(),
  decryptString: (b) => Buffer.from(b).reverse().toString().slice(4),
};

// The page's frame as the main process sees it: the app's own origin, top level.
const frame = { url: 'agent-desk://app/index.html', parent: null };
const senderOf = () => ({ sender: state.windows[0]?.webContents, senderFrame: frame });

export const ipcRenderer = {
  invoke: async (ch, ...args) => {
    const h = ipcMain.handlers.get(ch);
    if (!h) throw new Error(`No handler registered for '${ch}'`);
    return h(senderOf(), ...args);
  },
  send: (ch, ...args) => ipcMain.emit(ch, senderOf(), ...args),
  on: (ch, listener) => toRenderer.on(ch, listener),
};
export const contextBridge = { exposeInMainWorld: (key, api) => { state.exposed[key] = api; } };

export default { app, BrowserWindow, ipcMain, session, protocol, Menu, shell, dialog, safeStorage, ipcRenderer, contextBridge, utilityProcess, MessageChannelMain };
