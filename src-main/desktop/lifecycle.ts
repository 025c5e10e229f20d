import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type App } from 'electron';
import path from 'node:path';
import { startPlatform, checkSqliteBinding, type Platform } from '../platform/platform.js';
import { reportStartupFailure } from './startup-failure.js';
import { resolveDesktopPaths } from './paths.js';
import { safeStorageBox } from './secrets.js';
import { createMainWindow } from './window.js';
import { appCsp, guardWebContents, installCsp, installPermissionHandlers, isExternalWebUrl } from './security.js';
import { APP_URL, isAppUrl, registerAppScheme, serveAppScheme } from './app-protocol.js';
import { registerBridge } from './bridge.js';
import { buildMenuTemplate } from './menu.js';
import { ApiServer } from './api-server.js';

/**
 * Quit waits for the platform: the first `before-quit` is held back while `shutdown` runs
 * (running executions finish or are recorded, the database closes), then the app quits for real.
 */
export function installGracefulQuit(target: Pick<App, 'on' | 'quit'>, shutdown: () => Promise<void>, onError: (err: unknown) => void = () => {}): void {
  let state: 'running' | 'closing' | 'closed' = 'running';
  target.on('before-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    shutdown()
      .catch(onError)
      .finally(() => {
        state = 'closed';
        target.quit();
      });
  });
}

/** One app per user: a second launch focuses the first window and exits. Returns false in the second. */
export function claimSingleInstance(target: Pick<App, 'requestSingleInstanceLock' | 'on' | 'quit'>, focus: () => void): boolean {
  if (!target.requestSingleInstanceLock()) {
    target.quit();
    return false;
  }
  target.on('second-instance', () => focus());
  return true;
}

export interface Running {
  platform: Platform;
  api: ApiServer;
  window: () => BrowserWindow | null;
}

/** The desktop app, from launch to quit. */
export async function startDesktop(): Promise<Running | null> {
  const devUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
  const paths = resolveDesktopPaths();
  registerAppScheme();
  let win: BrowserWindow | null = null;
  const focus = () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  };
  if (!claimSingleInstance(app, focus)) return null;
  const isOurs = (url: string) => isAppUrl(url, devUrl);
  const openExternal = (url: string) => (isExternalWebUrl(url) ? shell.openExternal(url) : undefined);
  app.on('web-contents-created', (_e, contents) => guardWebContents(contents, { isAppUrl: isOurs, openExternal }));

  await app.whenReady();
  const csp = appCsp(devUrl);
  installCsp(session.defaultSession, csp);
  installPermissionHandlers(session.defaultSession);
  serveAppScheme(paths.rendererDir, csp);

  let platform: Platform;
  try {
    // SQLite's addon (N-API: one binary for Node and every Electron), checked before anything opens.
    checkSqliteBinding({ fix: app.isPackaged ? 'reinstall Agent Desk (its package lacks a working SQLite)' : undefined });
    platform = await startPlatform({ dataDir: paths.dataDir, resourcesDir: paths.resourcesDir, secrets: safeStorageBox() });
  } catch (err) {
    // A binding that cannot load, a damaged database, one from a newer Agent Desk: one sentence, not a silent exit.
    reportStartupFailure(err, { showErrorBox: (t, c) => dialog.showErrorBox(t, c), logFile: path.join(app.getPath('logs'), 'main.log'), ready: app.isReady() });
    app.exit(1);
    return null;
  }
  const api = new ApiServer(platform);
  installGracefulQuit(
    app,
    // Refuse new API connections, let running work finish (platform.close), then drop the rest.
    () => api.stop(() => platform.close()),
    (err) => platform.log.error({ err }, 'shutdown failed'),
  );
  await api.start();

  registerBridge({
    ipcMain,
    dialog,
    platform,
    isAppUrl: isOurs,
    baseUrl: () => api.url ?? 'http://localhost',
    appInfo: () => ({ version: app.getVersion(), platform: process.platform, apiUrl: api.url, dataDir: paths.dataDir }),
    windowOf: (event) => BrowserWindow.fromWebContents(event.sender),
  });
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({ isMac: process.platform === 'darwin', dev: !app.isPackaged, apiUrl: () => api.url, openExternal, openDataDir: () => shell.openPath(paths.dataDir) }),
    ),
  );

  const open = () => {
    win = createMainWindow({ preload: paths.preload, url: devUrl ?? APP_URL });
    win.on('closed', () => (win = null));
  };
  open();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) open();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // Started from a terminal (npm start): Ctrl+C quits gracefully too.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => app.quit());
  return { platform, api, window: () => win };
}
