import { useNav } from '../../stores/nav';
import { useT } from '../../i18n';

/** "Open Settings → Remote", as a real link so it also works from the keyboard and in a new tab. */
export function RemoteLink() {
  const go = useNav((s) => s.go);
  const t = useT();
  return (
    <a
      href="#/settings/remote"
      onClick={(e) => {
        e.preventDefault();
        go('settings', 'remote');
      }}
    >
      {t('settings.remote.openLink')}
    </a>
  );
}
