import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';

/** The main window's options: the renderer gets the preload bridge and nothing of Node. */
export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    show: false, // shown on ready-to-show: no white flash
    title: 'Agent Desk',
    backgroundColor: '#111318',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: true,
    },
  };
}

export function createMainWindow(opts: { preload: string; url: string }): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(opts.preload));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(opts.url);
  return win;
}
