import type { MenuItemConstructorOptions } from 'electron';
import { desktopWords, type DesktopWords } from './words.js';

export interface MenuContext {
  isMac: boolean;
  dev: boolean;
  /** The localhost API's URL when it is on (asked of the platform process). */
  apiUrl: () => Promise<string | null>;
  openExternal: (url: string) => unknown;
  openDataDir: () => unknown;
  /** The menu's words (the window's language); English when not given. */
  words?: DesktopWords;
}

/**
 * The application menu: standard roles plus the data folder and the API docs. Each role item is
 * labelled from the catalog: Electron names roles in English outside macOS.
 */
export function buildMenuTemplate(ctx: MenuContext): MenuItemConstructorOptions[] {
  const w = (ctx.words ?? desktopWords('en')).menu;
  const apiDocs: MenuItemConstructorOptions = {
    label: w.openApiDocs,
    click: () =>
      void ctx.apiUrl().then((url) => {
        if (url) void ctx.openExternal(`${url}/api/docs`);
      }),
  };
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload', label: w.reload },
    ...(ctx.dev ? ([{ role: 'toggleDevTools', label: w.devTools }] as MenuItemConstructorOptions[]) : []),
    { type: 'separator' },
    { role: 'resetZoom', label: w.resetZoom },
    { role: 'zoomIn', label: w.zoomIn },
    { role: 'zoomOut', label: w.zoomOut },
    { type: 'separator' },
    { role: 'togglefullscreen', label: w.fullscreen },
  ];
  const edit: MenuItemConstructorOptions[] = [
    { role: 'undo', label: w.undo },
    { role: 'redo', label: w.redo },
    { type: 'separator' },
    { role: 'cut', label: w.cut },
    { role: 'copy', label: w.copy },
    { role: 'paste', label: w.paste },
    { role: 'selectAll', label: w.selectAll },
  ];
  return [
    ...(ctx.isMac ? ([{ role: 'appMenu' }] as MenuItemConstructorOptions[]) : []),
    {
      label: w.file,
      submenu: [{ label: w.openDataFolder, click: () => void ctx.openDataDir() }, apiDocs, { type: 'separator' }, ctx.isMac ? { role: 'close', label: w.close } : { role: 'quit', label: w.quit }],
    },
    { label: w.edit, submenu: edit },
    { label: w.view, submenu: view },
    { role: 'windowMenu', label: w.window, submenu: [{ role: 'minimize', label: w.minimize }, ...(ctx.isMac ? ([{ role: 'zoom', label: w.zoom }] as MenuItemConstructorOptions[]) : []), { type: 'separator' }, { role: 'close', label: w.close }] },
    { role: 'help', label: w.help, submenu: [apiDocs] },
  ];
}
