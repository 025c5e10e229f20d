import { useNav } from '../../stores/nav';

/** "Open Settings → Remote", as a real link so it also works from the keyboard and in a new tab. */
export function RemoteLink() {
  const go = useNav((s) => s.go);
  return (
    <a
      href="#/settings/remote"
      onClick={(e) => {
        e.preventDefault();
        go('settings', 'remote');
      }}
    >
      Open Settings → Remote
    </a>
  );
}
