import { create } from 'zustand';
import { api, ops } from '../api';
import { applyLocale, currentLocale, isLocale, systemLocale, type Locale } from '../i18n';

/**
 * The person's language choice: the platform keeps it (app setting ext `locale`, null = follow
 * the system), so it survives restarts; a copy in localStorage lets the first paint after a
 * restart already speak it, before the platform has answered.
 */
const MIRROR = 'agent-desk.locale';

export type LocaleChoice = Locale | null;

function readMirror(): LocaleChoice {
  try {
    const v = localStorage.getItem(MIRROR);
    return isLocale(v) ? v : null;
  } catch {
    return null;
  }
}

function writeMirror(choice: LocaleChoice) {
  try {
    if (choice) localStorage.setItem(MIRROR, choice);
    else localStorage.removeItem(MIRROR);
  } catch {}
}

interface LocaleState {
  /** what Settings shows as chosen: a language, or null for the system's */
  choice: LocaleChoice;
  /** the language the app speaks now */
  active: Locale;
}

export const useLocale = create<LocaleState>(() => ({ choice: null, active: 'en' }));

async function apply(choice: LocaleChoice) {
  await applyLocale(choice ?? systemLocale());
  useLocale.setState({ choice, active: currentLocale() });
}

/** Before the first render: the last known choice, else the system's language. */
export function startLocale(): Promise<void> {
  return apply(readMirror());
}

/** After start: the platform's setting wins over the local copy (another window may have changed it). */
export async function syncLocaleSetting(): Promise<void> {
  try {
    const { locale } = await api.call(ops.getAppPreferences, {});
    writeMirror(locale);
    if (locale !== useLocale.getState().choice || (locale ?? systemLocale()) !== currentLocale()) await apply(locale);
  } catch {
    // Signed out or the platform is away: the local choice stays until the next start.
  }
}

/** Settings' language picker: saves on the platform, then switches the app at once. */
export async function chooseLocale(choice: LocaleChoice): Promise<void> {
  const { locale } = await api.call(ops.updateAppPreferences, { body: { locale: choice } });
  writeMirror(locale);
  await apply(locale);
}
