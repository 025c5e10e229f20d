import type { Agent } from '../../../src-main/platform/contract/agents';
import { useChat } from '../../stores/chat';

export function AgentPicker({ agents, agent }: { agents: Agent[]; agent: Agent | null }) {
  const selectAgent = useChat((s) => s.selectAgent);
  const busy = useChat((s) => s.busy);
  return (
    <label className="field inline">
      <span>Agent</span>
      <select
        value={agent?.id ?? ''}
        disabled={busy || !agents.length}
        data-testid="agent-picker"
        onChange={(e) => {
          const next = agents.find((a) => a.id === Number(e.target.value));
          if (next) selectAgent(next);
        }}
      >
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.title} ({a.type})
          </option>
        ))}
      </select>
    </label>
  );
}
