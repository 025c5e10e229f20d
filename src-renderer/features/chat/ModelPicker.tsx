import { useAgents } from '../../stores/agents';
import { useAgentChoice } from '../../stores/agent-choice';
import { ModelSelect } from '../../components/ModelSelect';

/**
 * The chat's `model` question: the app's one model picker (what the providers serve, the default
 * marked; a saved choice no provider serves becomes the agent's default, else the app's). A remote
 * platform's agent runs on the remote's models: its own options, never this machine's.
 */
export function ModelPicker({ id, value, options, required, onChange }: { id: string; value: string; options: string[]; required: boolean; onChange(model: string): void }) {
  const agent = useAgents((s) => s.agents.find((a) => a.id === useAgentChoice.getState().agentId));
  if (agent?.source === 'remote') {
    return (
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="model-picker">
        {!required ? <option value="">—</option> : null}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  const preferred = agent?.questions.find((q) => q.name === 'model')?.default;
  return <ModelSelect id={id} value={value} onChange={onChange} preferred={typeof preferred === 'string' ? preferred : null} />;
}
