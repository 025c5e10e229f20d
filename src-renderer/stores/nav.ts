import { create } from 'zustand';

/** The screens, in the sidebar's order, with the letter that opens each after "g" (their names are in the app catalog). */
export const SCREENS = [
  { id: 'chat', key: 'c' },
  { id: 'agents', key: 'a' },
  { id: 'files', key: 'f' },
  { id: 'memories', key: 'm' },
  { id: 'webhooks', key: 'w' },
  { id: 'schedules', key: 'r' },
  { id: 'usage', key: 'u' },
  { id: 'settings', key: 's' },
  { id: 'developer', key: 'd' },
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
