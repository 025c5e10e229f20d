import { create } from 'zustand';

const KEY = 'agent-desk.enter-sends';
const HIDE_SCHEDULED = 'agent-desk.hide-scheduled';

const stored = (key: string) => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
  } catch {
    return null;
  }
};

/**
 * How the composer's keys behave: Enter sends and Shift+Enter adds a line (the default, as every
 * peer does), or swapped; and whether the session list leaves out the sessions schedules started.
 * Both remembered in this window's storage.
 */
interface ChatPrefs {
  enterSends: boolean;
  setEnterSends(v: boolean): void;
  hideScheduled: boolean;
  setHideScheduled(v: boolean): void;
}

export const useChatPrefs = create<ChatPrefs>((set) => ({
  enterSends: stored(KEY) !== '0',
  setEnterSends(v) {
    localStorage.setItem(KEY, v ? '1' : '0');
    set({ enterSends: v });
  },
  hideScheduled: stored(HIDE_SCHEDULED) === '1',
  setHideScheduled(v) {
    localStorage.setItem(HIDE_SCHEDULED, v ? '1' : '0');
    set({ hideScheduled: v });
  },
}));
