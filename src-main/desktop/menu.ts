import type { MenuItemConstructorOptions } from 'electron';

export interface MenuContext {
  isMac: boolean;
  dev: boolean;
  /** The localhost API's URL when it is on (asked of the platform process). */
  apiUrl: () => Promise<string | null>;
  openExternal: (url: string) => unknown;
  openDataDir: () => unknown;
}

/** The application menu: standard roles plus the data folder and the API docs. */
export function buildMenuTemplate(ctx: MenuContext): MenuItemConstructorOptions[] {
  const apiDocs: MenuItemConstructorOptions = {
    label: 'Open API Docs in Browser',
    click: () =>
      void ctx.apiUrl().then((url) => {
        if (url) void ctx.openExternal(`${url}/api/docs`);
      }),
  };
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(ctx.dev ? ([{ role: 'toggleDevTools' }] as MenuItemConstructorOptions[]) : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(ctx.isMac ? ([{ role: 'appMenu' }] as MenuItemConstructorOptions[]) : []),
    {
      label: 'File',
      submenu: [{ label: 'Open Data Folder', click: () => void ctx.openDataDir() }, apiDocs, { type: 'separator' }, ctx.isMac ? { role: 'close' } : { role: 'quit' }],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [apiDocs] },
  ];
}
