import { create } from 'zustand';
import { api, ops } from '../api';
import type { RemoteSettings } from '../../src-main/platform/contract/remote';

interface RemoteState {
  /** The platform's view of the connection; null until loaded. */
  settings: RemoteSettings | null;
  error: unknown;
  load(): Promise<void>;
  set(settings: RemoteSettings): void;
}

/**
 * The remote connection's state, shared by Settings → Remote and the chat's offline banner so
 * a Refresh in one shows in the other without a reload.
 */
export const useRemote = create<RemoteState>((set) => ({
  settings: null,
  error: null,
  async load() {
    try {
      set({ settings: await api.call(ops.getRemoteSettings, {}), error: null });
    } catch (error) {
      set({ error });
    }
  },
  set(settings) {
    set({ settings, error: null });
  },
}));
