/**
 * The Electron window's settings (ARCHITECTURE.md "Security by default"): context isolation,
 * sandbox, no Node in the renderer, web security on, and a CSP without inline or eval'd script.
 * Electron itself is replaced by an empty stand-in: only the pure builders are exercised.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ BrowserWindow: class {}, session: {}, app: {}, protocol: {}, net: {}, shell: {} }));

const { mainWindowOptions } = await import('../../src-main/desktop/window.js');
const { appCsp } = await import('../../src-main/desktop/security.js');

describe('Electron window settings', () => {
  it('isolate the renderer from Node and the web', () => {
    const o = mainWindowOptions('/app/preload.js');
    const w = o.webPreferences!;
    expect(w.preload).toBe('/app/preload.js');
    expect(w.contextIsolation).toBe(true);
    expect(w.sandbox).toBe(true);
    expect(w.nodeIntegration).toBe(false);
    expect(w.nodeIntegrationInWorker ?? false).toBe(false);
    expect(w.nodeIntegrationInSubFrames ?? false).toBe(false);
    expect(w.webSecurity ?? true).toBe(true);
    expect(w.allowRunningInsecureContent ?? false).toBe(false);
    expect(w.webviewTag ?? false).toBe(false);
    expect(w.experimentalFeatures ?? false).toBe(false);
    expect(w.enableBlinkFeatures).toBeUndefined();
  });

  it('the app CSP allows scripts only from the app itself', () => {
    const csp = appCsp();
    const script = /script-src ([^;]+)/.exec(csp)?.[1] ?? /default-src ([^;]+)/.exec(csp)?.[1] ?? '';
    expect(script).not.toBe('');
    expect(script).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(csp).toMatch(/object-src 'none'/);
  });
});
