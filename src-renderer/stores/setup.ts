import { useEffect } from 'react';
import { create } from 'zustand';
import type { DefaultModel, Model, ModelSource } from '../../src-main/platform/contract/models';
import { api, ops } from '../api';
import { useAgents } from './agents';

interface SetupState {
  /** `needed`: no configured provider serves any model, so Chat shows the setup panel */
  status: 'checking' | 'needed' | 'ready' | 'error';
  models: Model[];
  sources: ModelSource[];
  defaultModel: DefaultModel | null;
  error: unknown;
  /** bumped after every check, so pickers reload */
  version: number;
  check(opts?: { fresh?: boolean }): Promise<void>;
}

/** Whether any model can run (GET /api/models), what the providers serve, and the default model. */
export const useSetup = create<SetupState>((set, get) => ({
  status: 'checking',
  models: [],
  sources: [],
  defaultModel: null,
  error: null,
  version: 0,
  async check(opts = {}) {
    try {
      const [models, sources, defaultModel] = await Promise.all([
        api.call(ops.listModels, { query: opts.fresh ? { fresh: 1 } : {} }),
        api.call(ops.listModelSources, {}),
        api.call(ops.getDefaultModel, {}),
      ]);
      set({ models, sources, defaultModel, error: null, status: models.length ? 'ready' : 'needed', version: get().version + 1 });
    } catch (error) {
      // A platform that cannot answer (an older remote, a network fault) must not hide the chat.
      set({ error, status: 'error', version: get().version + 1 });
    }
  },
}));

/**
 * Checks once per mount of the chat; true while no configured provider serves a model and no
 * remote platform lends its agents (they run on the remote's models).
 */
export function useNeedsSetup(): boolean {
  const status = useSetup((s) => s.status);
  const remote = useAgents((s) => s.agents.some((a) => a.source === 'remote'));
  const check = useSetup((s) => s.check);
  useEffect(() => {
    void check();
  }, [check]);
  return status === 'needed' && !remote;
}
