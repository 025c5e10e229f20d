import { useEffect, useMemo } from 'react';
import { useSetup } from '../setup/setup-store';
import { useAgents } from '../../stores/agents';
import { useChat } from '../../stores/chat';

/**
 * The `model` question as a picker of what the configured providers serve now, grouped by
 * provider (GET /api/models). A value no provider serves is replaced by the default model, so a
 * new provider is usable without a visit to Settings. Without a listing, the agent's own options.
 */
export function ModelPicker({ id, value, options, required, onChange }: { id: string; value: string; options: string[]; required: boolean; onChange(model: string): void }) {
  const setup = useSetup();
  const { sources, defaultModel, status, version, check } = setup;
  // A remote platform's agent runs on the remote's models: its own options, never this machine's.
  const remote = useAgents((s) => s.agents.find((a) => a.id === useChat.getState().agentId)?.source === 'remote');
  const models = remote ? [] : setup.models;
  useEffect(() => {
    if (status === 'checking' && version === 0) void check();
  }, [status, version, check]);

  const groups = useMemo(() => {
    const label = new Map(sources.map((s) => [s.provider, s.label]));
    const out = new Map<string, { label: string; items: { id: string; label: string; option: boolean }[] }>();
    for (const m of models) {
      const g = out.get(m.provider) ?? { label: label.get(m.provider) ?? m.provider, items: [] };
      g.items.push({ id: m.id, label: m.label, option: m.source === 'option' });
      out.set(m.provider, g);
    }
    return [...out.entries()];
  }, [models, sources]);

  const served = models.some((m) => m.id === value);
  useEffect(() => {
    // The saved choice is not served (first run, a provider removed): take the default model.
    if (!models.length || served) return;
    const next = defaultModel?.model && models.some((m) => m.id === defaultModel.model) ? defaultModel.model : models[0].id;
    if (next !== value) onChange(next);
  }, [models, served, defaultModel, value, onChange]);

  if (!models.length) {
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
  return (
    <select id={id} value={served ? value : ''} onChange={(e) => onChange(e.target.value)} data-testid="model-picker">
      {!served ? <option value="">Choose a model</option> : null}
      {groups.map(([provider, g]) => (
        <optgroup key={provider} label={g.label}>
          {g.items.map((m) => (
            <option key={m.id} value={m.id}>
              {m.label}
              {defaultModel?.model === m.id ? ' (default)' : ''}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  );
}
