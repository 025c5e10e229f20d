import { useEffect, useState } from 'react';
import type { Agent } from '../../../src-main/platform/contract/agents';
import { api, ops } from '../../api';

export interface AgentTools {
  /** the agent's tool servers, by name, with the tools it may use (null: all of them) */
  servers: { id: number; name: string; tools: string[] | null; off: boolean }[];
}

/**
 * The agent's own tools (its MCP servers) by name, read when the agent changes. A server the list
 * no longer has (removed) is left out; one switched off says so.
 */
export function useAgentTools(agent: Agent | null): AgentTools {
  const refs = agent?.source === 'remote' ? [] : (agent?.tool_servers ?? []);
  const wanted = refs.length ? JSON.stringify(refs) : '';
  const [servers, setServers] = useState<AgentTools['servers']>([]);
  useEffect(() => {
    if (!wanted) {
      setServers([]);
      return;
    }
    let gone = false;
    api
      .call(ops.listMcpServers, {})
      .then((list) => {
        if (gone) return;
        const byId = new Map(list.data.map((s) => [s.id, s]));
        setServers(refs.flatMap((r) => {
          const s = byId.get(r.server_id);
          return s ? [{ id: s.id, name: s.name, tools: r.tools, off: !s.enabled }] : [];
        }));
      })
      .catch(() => {
        if (!gone) setServers([]);
      });
    return () => {
      gone = true;
    };
    // `refs` is read through `wanted` (the same, as text), which changes when they do.
  }, [wanted, agent?.id]);
  return { servers };
}
