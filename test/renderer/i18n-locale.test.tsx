// @vitest-environment jsdom
/**
 * The language mechanism: the system's language on first start, Portuguese loaded only when
 * chosen, a switch that re-renders the app in place (no reload), the choice saved on the
 * platform and remembered for the next start, and numbers and dates in the active language.
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLocale, currentLocale, i18n, systemLocale, t } from '../../src-renderer/i18n';
import { chooseLocale, startLocale, syncLocaleSetting, useLocale } from '../../src-renderer/stores/locale';
import { Sidebar } from '../../src-renderer/components/Sidebar';
import { formatBytes, formatCredits, formatNumber, formatRelative, formatTime } from '../../src-renderer/components/format';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The platform's app setting, answered as /api/settings/app does. */
let stored: string | null = null;
const puts: unknown[] = [];
beforeEach(() => {
  stored = null;
  puts.length = 0;
  localStorage.clear();
  vi.stubGlobal('fetch', async (url: string, init: { method: string; body?: string }) => {
    expect(url).toBe('/api/settings/app');
    if (init.method === 'PUT') {
      const body = JSON.parse(init.body ?? '{}') as { locale: string | null };
      puts.push(body);
      stored = body.locale;
    }
    return new Response(JSON.stringify({ locale: stored }), { headers: { 'content-type': 'application/json' } });
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await applyLocale('en');
});

describe('the app language', () => {
  it('follows the system: Portuguese of any country reads pt-BR, English and others English', () => {
    expect(systemLocale(['pt-BR'])).toBe('pt-BR');
    expect(systemLocale(['pt-PT', 'en'])).toBe('pt-BR');
    expect(systemLocale(['pt'])).toBe('pt-BR');
    expect(systemLocale(['de-DE', 'en-GB'])).toBe('en');
    expect(systemLocale(['fr-FR'])).toBe('en');
    expect(systemLocale(['de', 'pt-BR'])).toBe('pt-BR');
  });

  it('starts in English with only the English catalog; Portuguese loads when chosen', async () => {
    expect(currentLocale()).toBe('en');
    expect(i18n.hasResourceBundle('pt-BR', 'translation')).toBe(false);
    expect(t('settings.title')).toBe('Settings');
    await applyLocale('pt-BR');
    expect(i18n.hasResourceBundle('pt-BR', 'translation')).toBe(true);
    expect(t('settings.title')).toBe('Configurações');
    expect(document.documentElement.lang).toBe('pt-BR');
  });

  it('switches a rendered screen in place, and saves the choice on the platform for the next start', async () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    await act(async () => root.render(<Sidebar />));
    expect(host.textContent).toContain('Settings');
    await act(() => chooseLocale('pt-BR'));
    expect(puts).toEqual([{ locale: 'pt-BR' }]);
    expect(host.textContent).toContain('Configurações');
    expect(host.textContent).not.toContain('Settings');
    expect(host.querySelector('nav')?.getAttribute('aria-label')).toBe('Telas');
    expect(useLocale.getState()).toEqual({ choice: 'pt-BR', active: 'pt-BR' });

    // The next start paints in Portuguese before the platform answers (the local copy).
    await act(() => applyLocale('en'));
    await act(() => startLocale());
    expect(currentLocale()).toBe('pt-BR');

    // Back to the system's language (English in this browser).
    await act(() => chooseLocale(null));
    expect(stored).toBeNull();
    expect(host.textContent).toContain('Settings');
    expect(useLocale.getState()).toEqual({ choice: null, active: 'en' });
    act(() => root.unmount());
  });

  it("takes the platform's setting over the local copy after start (chosen in another window)", async () => {
    await startLocale();
    expect(currentLocale()).toBe('en');
    stored = 'pt-BR';
    await syncLocaleSetting();
    expect(currentLocale()).toBe('pt-BR');
    expect(useLocale.getState().choice).toBe('pt-BR');
    expect(localStorage.getItem('agent-desk.locale')).toBe('pt-BR');
  });

  it('formats numbers, credits, sizes and dates in the active language', async () => {
    const now = Date.parse('2026-11-28T21:00:00Z');
    const at = '2026-11-28T20:55:00Z';
    expect([formatCredits(0.0123), formatCredits(12.5), formatBytes(1536), formatBytes(512), formatNumber(12345.5)]).toEqual(['0.0123', '12.5', '1.5 KB', '512 B', '12,345.5']);
    expect(formatRelative(at, now)).toBe('5 minutes ago');
    expect(formatRelative('2026-11-27T20:00:00Z', now)).toBe('yesterday');
    expect(formatTime('2026-11-28T21:00:00Z')).toMatch(/Nov 28, 2026/);
    await applyLocale('pt-BR');
    expect([formatCredits(0.0123), formatCredits(12.5), formatBytes(1536), formatBytes(512), formatNumber(12345.5)]).toEqual(['0,0123', '12,5', '1,5 KB', '512 B', '12.345,5']);
    expect(formatRelative(at, now)).toBe('há 5 minutos');
    expect(formatRelative('2026-11-27T20:00:00Z', now)).toBe('ontem');
    expect(formatTime('2026-11-28T21:00:00Z')).toMatch(/28 de nov\. de 2026/);
  });
});
