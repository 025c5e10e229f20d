import { app, BrowserWindow, dialog, ipcMain, Menu, MessageChannelMain, session, shell, utilityProcess, type App } from 'electron';
import path from 'node:path';
import { resolveConfig } from '../platform/kernel/config.js';
import { createLogger } from '../platform/kernel/log.js';
import { workerEntry } from '../platform/kernel/worker-entry.js';
import { reportStartupFailure } from './startup-failure.js';
import { resolveDesktopPaths } from './paths.js';
import { loadDataKey, openLegacySecrets } from './secrets.js';
import { createMainWindow } from './window.js';
import { appCsp, guardWebContents, installCsp, installPermissionHandlers, isExternalWebUrl } from './security.js';
import { APP_URL, isAppUrl, registerAppScheme, serveAppScheme } from './app-protocol.js';
import { registerBridge } from './bridge.js';
import { buildMenuTemplate } from './menu.js';
import { desktopLocale, desktopWords, type DesktopLocale } from './words.js';
import { PlatformProcess, type PlatformChild, type MainPort } from './platform-process.js';
import { serveReaders } from './utility-readers.js';

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
  platform: PlatformProcess;
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

  const log = createLogger();
  const logFile = path.join(app.getPath('logs'), 'main.log');
  const fail = (err: unknown) => {
    // A damaged database, one from a newer Agent Desk, an addon that cannot load: one sentence, not a silent exit.
    reportStartupFailure(err, { showErrorBox: (t, c) => dialog.showErrorBox(t, c), logFile, ready: app.isReady() });
    app.exit(1);
    return null;
  };
  let platform: PlatformProcess;
  try {
    // Built, platform.js sits next to this bundle (electron.vite.config.ts input `platform`).
    const entry = await workerEntry(import.meta.url, '../platform/host/platform-host.ts', './platform.js');
    // The keychain is the main process's: the platform gets the key its secrets are sealed with.
    const dataKey = loadDataKey(paths.dataDir);
    platform = new PlatformProcess({
      fork: () => utilityProcess.fork(entry, [], { serviceName: 'Agent Desk engine', stdio: 'inherit' }) as unknown as PlatformChild,
      channel: () => new MessageChannelMain() as unknown as { port1: MainPort; port2: MainPort },
      options: () => ({
        dataDir: paths.dataDir,
        resourcesDir: paths.resourcesDir,
        dataKey: dataKey?.toString('base64') ?? null,
        bindingFix: app.isPackaged ? 'reinstall Agent Desk (its package lacks a working SQLite)' : undefined,
      }),
      openLegacy: (sealed) => openLegacySecrets(sealed),
      serveReaders,
      log: (message, extra) => log.warn(extra ?? {}, message),
    });
    await platform.start();
  } catch (err) {
    return fail(err);
  }
  platform.on('gave-up', (message: string) => log.error({ message }, 'the platform process keeps stopping; not restarting it'));
  // Quit: the platform refuses new API connections, lets running work finish, closes the database.
  installGracefulQuit(app, () => platform.stop(), (err) => log.error({ err }, 'shutdown failed'));

  const maxUploadBytes = resolveConfig({ dataDir: paths.dataDir }).maxUploadBytes;
  // The menu speaks the system's language until the page says which one it chose (Settings → Language).
  let locale: DesktopLocale = desktopLocale(app.getPreferredSystemLanguages?.() ?? [app.getLocale?.() ?? 'en']);
  const setMenu = () =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        buildMenuTemplate({ isMac: process.platform === 'darwin', dev: !app.isPackaged, apiUrl: () => platform.apiUrl(), openExternal, openDataDir: () => shell.openPath(paths.dataDir), words: desktopWords(locale) }),
      ),
    );
  registerBridge({
    ipcMain,
    dialog,
    connect: (page) => platform.connect(page),
    maxUploadBytes,
    isAppUrl: isOurs,
    appInfo: async () => ({ version: app.getVersion(), platform: process.platform, apiUrl: await platform.apiUrl(), dataDir: paths.dataDir }),
    windowOf: (event) => BrowserWindow.fromWebContents(event.sender),
    locale: () => locale,
    setLocale: (next) => {
      if (next === locale) return;
      locale = next;
      setMenu();
    },
  });
  setMenu();

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
  return { platform, window: () => win };
}
