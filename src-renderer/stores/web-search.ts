import { create } from 'zustand';
import { api, ops } from '../api';

/** Whether a web search backend is set up (Settings → Web search), for the pickers that offer web search. */
interface WebSearchStatus {
  /** null until the first answer */
  configured: boolean | null;
  load(): Promise<void>;
  set(configured: boolean): void;
}

export const useWebSearchStatus = create<WebSearchStatus>((set) => ({
  configured: null,
  async load() {
    try {
      set({ configured: (await api.call(ops.getProviderSettings, {})).search.configured });
    } catch {
      // Unknown stays unknown: no claim either way.
    }
  },
  set(configured) {
    set({ configured });
  },
}));

/** Where web search is set up, as the app links to it. */
export const WEB_SEARCH_SETTINGS = { screen: 'settings', sub: 'search' } as const;
