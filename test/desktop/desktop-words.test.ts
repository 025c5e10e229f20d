/**
 * The desktop shell speaks the window's language: the application menu (its role items too),
 * the file dialog's title, and the engine's notices the page hears; the page tells the main
 * process when its language changes, and only the app's own page may.
 */
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate } from '../../src-main/desktop/menu.js';
import { desktopLocale, desktopWords } from '../../src-main/desktop/words.js';
import { registerBridge } from '../../src-main/desktop/bridge.js';
import { createBridge } from '../../src-main/desktop/bridge-client.js';
import { CHANNELS, ENGINE_RESTARTING } from '../../src-main/desktop/channels.js';
import type { MenuItemConstructorOptions } from 'electron';

vi.mock('electron', async () => (await import('./fake-electron.js')).fakeElectron);

const labels = (items: MenuItemConstructorOptions[]): string[] => items.flatMap((i) => [i.label ?? `(${i.role ?? i.type})`, ...(Array.isArray(i.submenu) ? labels(i.submenu) : [])]);
const menu = (locale: 'en' | 'pt-BR', isMac = false) =>
  buildMenuTemplate({ isMac, dev: true, apiUrl: async () => null, openExternal: () => undefined, openDataDir: () => undefined, words: desktopWords(locale) });

describe('the desktop shell in the window’s language', () => {
  it('takes the system’s language at start: any Portuguese reads pt-BR, else English', () => {
    expect(desktopLocale(['pt-BR', 'en-US'])).toBe('pt-BR');
    expect(desktopLocale(['pt-PT'])).toBe('pt-BR');
    expect(desktopLocale(['de-DE', 'en-GB'])).toBe('en');
    expect(desktopLocale([])).toBe('en');
  });

  it('labels every menu item, roles included, in Portuguese, and in English by default', () => {
    const pt = labels(menu('pt-BR'));
    expect(pt).toEqual(expect.arrayContaining(['Arquivo', 'Abrir a pasta de dados', 'Sair', 'Editar', 'Desfazer', 'Colar', 'Exibir', 'Recarregar', 'Tela cheia', 'Janela', 'Minimizar', 'Ajuda']));
    // Nothing left to Electron's English role names: every item but separators has a label.
    expect(pt.filter((l) => l.startsWith('(') && l !== '(separator)')).toEqual([]);
    const en = labels(buildMenuTemplate({ isMac: false, dev: false, apiUrl: async () => null, openExternal: () => undefined, openDataDir: () => undefined }));
    expect(en).toEqual(expect.arrayContaining(['File', 'Open Data Folder', 'Open API Docs in Browser', 'Edit', 'Paste', 'View', 'Help']));
    expect(labels(menu('pt-BR', true))).toEqual(expect.arrayContaining(['Fechar janela', 'Zoom']));
  });

  it('hears the page’s language from the app’s own page only, and titles the file dialog in it', async () => {
    const on = new Map<string, (event: unknown, ...args: unknown[]) => void>();
    const handle = new Map<string, (event: unknown) => unknown>();
    let locale: 'en' | 'pt-BR' = 'en';
    const titles: string[] = [];
    const off = registerBridge({
      ipcMain: { on: (c: string, f: never) => (on.set(c, f), undefined), handle: (c: string, f: never) => void handle.set(c, f), removeHandler: () => undefined, removeAllListeners: () => undefined } as never,
      dialog: { showOpenDialog: async (o: { title: string }) => (titles.push(o.title), { canceled: true, filePaths: [] }) } as never,
      connect: () => undefined,
      maxUploadBytes: 1024,
      isAppUrl: (u) => u.startsWith('agent-desk://'),
      appInfo: async () => ({ version: '0', platform: 'linux', apiUrl: null, dataDir: '/tmp' }),
      windowOf: () => null,
      locale: () => locale,
      setLocale: (l) => (locale = l),
    });
    const from = (url: string) => ({ senderFrame: { url, parent: null } });
    on.get(CHANNELS.locale)!(from('https://evil.example/'), 'pt-BR');
    expect(locale).toBe('en');
    on.get(CHANNELS.locale)!(from('agent-desk://app/index.html'), 'fr');
    expect(locale).toBe('en');
    on.get(CHANNELS.locale)!(from('agent-desk://app/index.html'), 'pt-BR');
    expect(locale).toBe('pt-BR');
    await handle.get(CHANNELS.openFiles)!(from('agent-desk://app/index.html'));
    expect(titles).toEqual(['Adicionar arquivos']);
    off();
  });

  it('gives the page the engine’s notice in the page’s language and tells the main process the language', () => {
    const sent: unknown[][] = [];
    const listeners = new Map<string, (event: { ports: readonly MessagePort[] }, ...args: unknown[]) => void>();
    const bridge = createBridge({ invoke: async () => undefined, send: (...a) => void sent.push(a), on: (c, f) => listeners.set(c, f) });
    const heard: unknown[] = [];
    bridge.onEngine!((s) => heard.push(s));
    bridge.setLocale!('pt-BR');
    expect(sent).toContainEqual([CHANNELS.locale, 'pt-BR']);
    listeners.get(CHANNELS.engine)!({ ports: [] }, { running: false, message: ENGINE_RESTARTING });
    expect(heard).toEqual([{ running: false, message: 'O motor do Agent Desk parou e está reiniciando…' }]);
  });
});
