import { create } from 'zustand';
import type { Agent } from '../../src-main/platform/contract/agents';
import { api, messageOf, ops } from '../api';

interface AgentsState {
  agents: Agent[];
  loaded: boolean;
  error: string | null;
  /** Every agent (pages of 100), for pickers; screens with search query the API themselves. */
  load(): Promise<void>;
  upsert(a: Agent): void;
  remove(id: number): void;
}

export const useAgents = create<AgentsState>((set, get) => ({
  agents: [],
  loaded: false,
  error: null,
  async load() {
    try {
      const all: Agent[] = [];
      for (let page = 1; page <= 20; page++) {
        const res = await api.call(ops.listAgents, { query: { page, per_page: 100 } });
        all.push(...res.data);
        if (page >= res.last_page) break;
      }
      set({ agents: all, loaded: true, error: null });
    } catch (err) {
      set({ loaded: true, error: messageOf(err) });
    }
  },
  upsert(a) {
    const list = get().agents;
    set({ agents: list.some((x) => x.id === a.id) ? list.map((x) => (x.id === a.id ? a : x)) : [a, ...list] });
  },
  remove(id) {
    set({ agents: get().agents.filter((a) => a.id !== id) });
  },
}));
