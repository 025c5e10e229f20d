import { create } from 'zustand';

export const SCREENS = [
  { id: 'chat', label: 'Chat', key: 'c' },
  { id: 'agents', label: 'Agents', key: 'a' },
  { id: 'files', label: 'Files', key: 'f' },
  { id: 'memories', label: 'Memories', key: 'm' },
  { id: 'webhooks', label: 'Webhooks', key: 'w' },
  { id: 'schedules', label: 'Schedules', key: 'r' },
  { id: 'usage', label: 'Usage', key: 'u' },
  { id: 'settings', label: 'Settings', key: 's' },
  { id: 'developer', label: 'Developer', key: 'd' },
] as const;
export type ScreenId = (typeof SCREENS)[number]['id'];

/** `#/settings/providers` → screen `settings`, sub `providers`. */
function parse(hash: string): { screen: ScreenId; sub: string } {
  const [screen = '', sub = ''] = hash.replace(/^#\/?/, '').split('/');
  const known = SCREENS.find((s) => s.id === screen);
  return { screen: known ? known.id : 'chat', sub };
}

interface NavState {
  screen: ScreenId;
  sub: string;
  /** per screen, the place it was left at (e.g. the open conversation): a screen opened without one returns there */
  left: Partial<Record<ScreenId, string>>;
  /** Opens `screen` at `sub`; without `sub`, where the screen was left. */
  go(screen: ScreenId, sub?: string): void;
}

const arrive = (left: NavState['left'], at: { screen: ScreenId; sub: string }) => ({ ...at, left: { ...left, [at.screen]: at.sub } });

// The hash is the source of truth so that links, reloads and back/forward all work.
export const useNav = create<NavState>((set, get) => {
  const start = parse(typeof location !== 'undefined' ? location.hash : '');
  return {
    ...arrive({}, start),
    go(screen, sub) {
      const at = sub ?? get().left[screen] ?? '';
      const hash = `#/${screen}${at ? `/${at}` : ''}`;
      if (location.hash !== hash) location.hash = hash;
      set(arrive(get().left, { screen, sub: at }));
    },
  };
});

if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => useNav.setState((s) => arrive(s.left, parse(location.hash))));
}
