import { useState } from 'react';
import type { ProvidersUpdate } from '../../../src-main/platform/contract/settings';
import { api } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { ProviderForm } from './ProviderForm';
import { ProviderCard } from './ProviderCard';
import { DefaultModelSetting } from './DefaultModelSetting';
import { RoutingTable } from './RoutingTable';
import { useSetup } from '../setup/setup-store';
import { savedInputs } from './providers';
import './providers.css';

export function ProvidersPanel() {
  const settings = useLoad(() => api.settings.providers(), []);
  const [editing, setEditing] = useState<string | null>(null);

  if (settings.error) return <ErrorNote error={settings.error} what="Model providers" />;
  if (!settings.data) return <p className="muted">Loading…</p>;
  const data = settings.data;

  /** Saves; answers the platform's refusal (the caller words it where it belongs) or null. */
  const save = async (update: ProvidersUpdate, done: string): Promise<unknown> => {
    try {
      await api.settings.saveProviders(update);
      toast(done);
      await settings.reload();
      // Every model picker, the cards' models and the setup panel follow at once.
      void useSetup.getState().check({ fresh: true });
      return null;
    } catch (err) {
      return err;
    }
  };

  return (
    <div className="stack">
      <p className="muted">Agents run on the models of these providers: OpenAI-compatible servers (LM Studio, llama.cpp, vLLM, OpenAI, OpenRouter), Ollama, Anthropic, or local GGUF files.</p>
      {!data.secrets_encrypted ? <p className="note note-muted small">API keys are stored without system encryption here (browser mode has no keychain).</p> : null}
      <DefaultModelSetting saved={data.default_model} onSave={(model) => save({ default_model: model }, model ? `Default model: ${model}.` : 'Default model: automatic.')} />
      {!data.providers.length ? <p className="note note-warn">No model provider is set up yet. Add one below to start chatting.</p> : null}
      {data.providers.map((p) =>
        editing === p.id ? (
          <ProviderForm
            key={p.id}
            existing={data.providers.map((x) => x.id)}
            editing={p}
            onCancel={() => setEditing(null)}
            onSave={async (next) => {
              // Saved ones are replaced in place; an environment's or detected one gets a saved override.
              const list = savedInputs(data.providers);
              const providers = p.source === 'settings' ? list.map((x) => (x.id === p.id ? next : x)) : [...list, next];
              const refused = await save({ providers }, `Saved ${next.label || next.id}.`);
              if (!refused) setEditing(null);
              return refused;
            }}
          />
        ) : (
          <ProviderCard
            key={p.id}
            provider={p}
            onEdit={() => setEditing(p.id)}
            onToggle={() => save({ providers: p.source === 'settings' ? savedInputs(data.providers).map((x) => (x.id === p.id ? { ...x, enabled: !p.enabled } : x)) : [...savedInputs(data.providers), { id: p.id, enabled: !p.enabled }] }, p.enabled ? 'Provider disabled.' : 'Provider enabled.')}
            onRemove={() => save({ providers: savedInputs(data.providers).filter((x) => x.id !== p.id) }, 'Provider removed.')}
          />
        ),
      )}
      <ProviderForm key={data.providers.length} existing={data.providers.map((p) => p.id)} onSave={(p) => save({ providers: [...savedInputs(data.providers), p] }, 'Provider added.')} />
      <details className="card advanced-routing" data-testid="advanced-routing">
        <summary>Advanced: which provider answers which model</summary>
        <RoutingTable settings={data} onSave={(routes) => save({ routes }, 'Model routing saved.')} />
      </details>
    </div>
  );
}
