import { ScreenLink } from '../../components/ScreenLink';
import { useT } from '../../i18n';

/** "Open Settings → Remote", as a real link so it also works from the keyboard and in a new tab. */
export function RemoteLink() {
  const t = useT();
  return (
    <ScreenLink screen="settings" sub="remote">
      {t('settings.remote.openLink')}
    </ScreenLink>
  );
}
