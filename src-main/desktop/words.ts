import { desktop as en } from '../../src-renderer/i18n/en/desktop.js';
import { desktop as ptBR } from '../../src-renderer/i18n/pt-BR/desktop.js';

/**
 * The desktop shell's words (menu, file dialog, engine notices) from the app's catalogs, in the
 * language the window speaks: the system's at start, then whatever the page says it chose.
 */
export type DesktopLocale = 'en' | 'pt-BR';
export type DesktopWords = typeof en;

export const isDesktopLocale = (v: unknown): v is DesktopLocale => v === 'en' || v === 'pt-BR';

export function desktopWords(locale: DesktopLocale): DesktopWords {
  return locale === 'pt-BR' ? ptBR : en;
}

/** The system's languages as one the app has (the renderer's rule: any Portuguese reads pt-BR, else English). */
export function desktopLocale(langs: readonly string[]): DesktopLocale {
  for (const lang of langs) {
    const l = lang.toLowerCase();
    if (l === 'pt' || l.startsWith('pt-')) return 'pt-BR';
    if (l === 'en' || l.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** `{{name}}` filled in, as the catalogs write it. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k] ?? ''));
}
