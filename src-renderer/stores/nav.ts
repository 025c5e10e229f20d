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
  go(screen: ScreenId, sub?: string): void;
}

// The hash is the source of truth so that links, reloads and back/forward all work.
export const useNav = create<NavState>((set) => ({
  ...parse(typeof location !== 'undefined' ? location.hash : ''),
  go(screen, sub = '') {
    const hash = `#/${screen}${sub ? `/${sub}` : ''}`;
    if (location.hash !== hash) location.hash = hash;
    set({ screen, sub });
  },
}));

if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => useNav.setState(parse(location.hash)));
}
