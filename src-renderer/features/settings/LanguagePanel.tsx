import { useState } from 'react';
import { LOCALES, systemLocale, useT, type Locale } from '../../i18n';
import { chooseLocale, useLocale, type LocaleChoice } from '../../stores/locale';
import { messageOf } from '../../api';
import { toast } from '../../stores/toasts';

const SYSTEM = 'system';

/** The app's language: the system's (the default) or one chosen here; applies at once, kept across restarts. */
export function LanguagePanel() {
  const t = useT();
  const choice = useLocale((s) => s.choice);
  const [busy, setBusy] = useState(false);
  const name = (l: Locale) => t(`settings.language.names.${l}`);
  const change = async (value: string) => {
    setBusy(true);
    try {
      await chooseLocale(value === SYSTEM ? null : (value as LocaleChoice));
      toast(t('settings.language.saved'));
    } catch (err) {
      toast(t('settings.language.failed', { reason: messageOf(err) }), 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="stack" style={{ maxWidth: 720 }}>
      <p className="muted">{t('settings.language.intro')}</p>
      <label className="field">
        <span>{t('settings.language.label')}</span>
        <select data-testid="language-select" style={{ maxWidth: 360 }} value={choice ?? SYSTEM} disabled={busy} onChange={(e) => void change(e.target.value)}>
          <option value={SYSTEM}>{t('settings.language.system', { language: name(systemLocale()) })}</option>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {name(l)}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
