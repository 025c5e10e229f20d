import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow, Dialog, IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { contentTypeOf } from '../platform/kernel/static-files.js';
import type { AppInfo, PickedFile } from '../platform/contract/bridge.js';
import { CHANNELS } from './channels.js';
import { desktopWords, fill, isDesktopLocale, type DesktopLocale } from './words.js';
import type { PageLike } from './platform-process.js';

/**
 * The main-process side of `window.agentDesk` (ARCHITECTURE Principle 3): it checks who asks
 * and hands the app's own page a MessagePort straight to the platform process, which serves the
 * requests and streams (platform/transports/port) with a trusted principal HTTP cannot forge.
 * What needs the main process stays here: the file dialog and the app's facts.
 */

type FrameLike = Pick<WebFrameMain, 'url'> & { parent: unknown };

/** Only the app's own top-level page may use the bridge (not an iframe, not a page it was tricked into). */
export function isTrustedSender(frame: FrameLike | null | undefined, isAppUrl: (url: string) => boolean): boolean {
  return !!frame && frame.parent === null && isAppUrl(frame.url);
}

/** Reads the files the user picked; each must fit the upload limit (bytes cross IPC in memory). */
export async function readPickedFiles(paths: string[], maxBytes: number, locale: DesktopLocale = 'en'): Promise<PickedFile[]> {
  const out: PickedFile[] = [];
  for (const p of paths) {
    const st = await fs.promises.stat(p);
    const name = path.basename(p);
    if (st.size > maxBytes) throw new Error(fill(desktopWords(locale).tooLarge, { name, mb: Math.round(maxBytes / 1024 / 1024) }));
    const buf = await fs.promises.readFile(p);
    const type = contentTypeOf(p);
    out.push({ name, type: type === 'application/octet-stream' ? '' : type.split(';')[0], data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer });
  }
  return out;
}

export interface BridgeDeps {
  ipcMain: Pick<IpcMain, 'handle' | 'on' | 'removeHandler' | 'removeAllListeners'>;
  dialog: Pick<Dialog, 'showOpenDialog'>;
  /** Hands a trusted page its port to the platform (now, or once the platform serves). */
  connect: (page: PageLike) => void;
  maxUploadBytes: number;
  isAppUrl: (url: string) => boolean;
  appInfo: () => Promise<AppInfo>;
  windowOf: (event: IpcMainInvokeEvent) => BrowserWindow | null;
  /** The window's language changed (the page tells): the shell's words follow. */
  setLocale?: (locale: DesktopLocale) => void;
  /** The language the shell speaks now. */
  locale?: () => DesktopLocale;
}

export const REFUSED = 'Refused: only the Agent Desk window may use this bridge.';

/** Registers the IPC handlers; returns a function that removes them. */
export function registerBridge(d: BridgeDeps): () => void {
  const guard = (event: IpcMainInvokeEvent | IpcMainEvent) => {
    if (!isTrustedSender(event.senderFrame, d.isAppUrl)) throw new Error(REFUSED);
  };
  // A foreign sender gets no port, and no answer: there is nothing for it to talk to.
  d.ipcMain.on(CHANNELS.connect, (event) => {
    if (isTrustedSender(event.senderFrame, d.isAppUrl)) d.connect(event.sender as unknown as PageLike);
  });
  d.ipcMain.handle(CHANNELS.openFiles, async (event) => {
    guard(event);
    const win = d.windowOf(event);
    const locale = d.locale?.() ?? 'en';
    const opts = { title: desktopWords(locale).addFiles, properties: ['openFile', 'multiSelections'] as ('openFile' | 'multiSelections')[] };
    const picked = win ? await d.dialog.showOpenDialog(win, opts) : await d.dialog.showOpenDialog(opts);
    return picked.canceled ? [] : readPickedFiles(picked.filePaths, d.maxUploadBytes, locale);
  });
  d.ipcMain.on(CHANNELS.locale, (event, locale: unknown) => {
    if (isTrustedSender(event.senderFrame, d.isAppUrl) && isDesktopLocale(locale)) d.setLocale?.(locale);
  });
  d.ipcMain.handle(CHANNELS.appInfo, (event) => {
    guard(event);
    return d.appInfo();
  });
  return () => {
    d.ipcMain.removeAllListeners(CHANNELS.connect);
    d.ipcMain.removeAllListeners(CHANNELS.locale);
    d.ipcMain.removeHandler(CHANNELS.openFiles);
    d.ipcMain.removeHandler(CHANNELS.appInfo);
  };
}
