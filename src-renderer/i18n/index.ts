import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en } from './en';
import type { Catalog } from './catalog';

/**
 * The app's words in two languages. English ships in the main bundle (it is the first language
 * and what a missing translation falls back to); Portuguese is a chunk of its own, loaded only
 * when it is chosen. Keys are typed from the English catalog (see i18next.d.ts).
 */
export const LOCALES = ['en', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];

const loaders: Record<Locale, () => Promise<Catalog>> = {
  en: async () => en,
  'pt-BR': () => import('./pt-BR').then((m) => m.ptBR),
};

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LOCALES],
  resources: { en: { translation: en } },
  // React escapes what it renders; i18next escaping would show &amp; in the page.
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** The language a browser or system asks for, as one the app has (Portuguese of any country reads pt-BR; others English). */
export function systemLocale(langs: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language]): Locale {
  for (const lang of langs) {
    const l = lang.toLowerCase();
    if (l === 'pt' || l.startsWith('pt-')) return 'pt-BR';
    if (l === 'en' || l.startsWith('en-')) return 'en';
  }
  return 'en';
}

export const isLocale = (v: unknown): v is Locale => LOCALES.includes(v as Locale);

/** The language the app speaks now (also what dates and numbers are formatted in). */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : 'en';
}

/** Switches the whole app to `locale` without a reload: loads its catalog first when needed. */
export async function applyLocale(locale: Locale): Promise<void> {
  if (!i18n.hasResourceBundle(locale, 'translation')) i18n.addResourceBundle(locale, 'translation', await loaders[locale]());
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
  // The desktop shell's menu and notices follow the page's language.
  if (typeof window !== 'undefined') window.agentDesk?.setLocale?.(locale);
}

/**
 * Text the platform words in English (the API's own messages stay English, CONTRACT.md): shown
 * as it is when the app speaks English, else the app's own sentence for it.
 */
export function platformText(english: string, worded: () => string): string {
  return currentLocale() === 'en' ? english : worded();
}

/** A language's name in the app's language ("German" / "alemão"), from its ISO code; `fallback` when Intl does not know it. */
export function languageName(code: string, fallback: string): string {
  try {
    return new Intl.DisplayNames([currentLocale()], { type: 'language', fallback: 'none' }).of(code) ?? fallback;
  } catch {
    return fallback;
  }
}

/** The translate function for code outside components (stores, errors); it reads the language at call time. */
export const t = i18n.t.bind(i18n);

/** The translate function for components: they re-render when the language changes. */
export function useT() {
  return useTranslation().t;
}

export { Trans } from 'react-i18next';
