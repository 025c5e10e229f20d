import type { Agent, AGENT_TYPES } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';

export type SourceFilter = '' | 'local' | 'remote';

export interface AgentListing {
  data: Agent[];
  current_page: number;
  last_page: number;
}

/**
 * One page of agents. The platform's list has no `source` filter, so with one set this reads
 * every page matching the search (its own search rules stay), keeps one source and pages here.
 */
export async function listAgents(o: { q?: string; type?: (typeof AGENT_TYPES)[number]; source: SourceFilter; page: number; perPage: number }): Promise<AgentListing> {
  const query = { q: o.q, type: o.type };
  if (!o.source) return api.call(ops.listAgents, { query: { ...query, page: o.page, per_page: o.perPage } });
  const all: Agent[] = [];
  for (let page = 1; page <= 20; page++) {
    const res = await api.call(ops.listAgents, { query: { ...query, page, per_page: 100 } });
    all.push(...res.data.filter((a) => a.source === o.source));
    if (page >= res.last_page) break;
  }
  const last = Math.max(1, Math.ceil(all.length / o.perPage));
  const current = Math.min(o.page, last);
  return { data: all.slice((current - 1) * o.perPage, current * o.perPage), current_page: current, last_page: last };
}
