import { useState } from 'react';
import type { ProvidersUpdate } from '../../../src-main/platform/contract/settings';
import { api, messageOf } from '../../api';
import { ErrorNote } from '../../components/ErrorNote';
import { useLoad } from '../../components/use-load';
import { toast } from '../../stores/toasts';
import { ProviderForm } from './ProviderForm';
import { RoutingTable } from './RoutingTable';
import { useSetup } from '../setup/setup-store';
import { PROVIDER_KIND_INFO, providerLabel, savedInputs } from './providers';

export function ProvidersPanel() {
  const settings = useLoad(() => api.settings.providers(), []);
  const [error, setError] = useState<unknown>(null);
  const [tests, setTests] = useState<Record<string, string>>({});

  if (settings.error) return <ErrorNote error={settings.error} what="Model providers" />;
  if (!settings.data) return <p className="muted">Loading…</p>;
  const data = settings.data;

  const save = async (update: ProvidersUpdate, done: string) => {
    try {
      await api.settings.saveProviders(update);
      setError(null);
      toast(done);
      await settings.reload();
      // The chat's model picker and setup panel follow at once.
      void useSetup.getState().check();
      return true;
    } catch (err) {
      setError(err);
      return false;
    }
  };

  const test = async (id: string) => {
    setTests((t) => ({ ...t, [id]: 'Testing…' }));
    try {
      const r = await api.settings.testProvider({ id });
      const list = r.models.length ? `: ${r.models.slice(0, 10).join(', ')}${r.models.length > 10 ? '…' : ''}` : '';
      setTests((t) => ({ ...t, [id]: r.ok ? `Connected in ${Math.round(r.latency_ms)} ms. ${r.models.length} model${r.models.length === 1 ? '' : 's'}${list}` : `Failed: ${r.error ?? 'no answer'}` }));
    } catch (err) {
      setTests((t) => ({ ...t, [id]: `Failed: ${messageOf(err)}` }));
    }
  };

  return (
    <div className="stack">
      <p className="muted">Agents run on the models of these providers: OpenAI-compatible servers (LM Studio, llama.cpp, vLLM, OpenAI, OpenRouter), Ollama, Anthropic, or local GGUF files.</p>
      {!data.secrets_encrypted ? <p className="note note-muted small">API keys are stored without system encryption here (browser mode has no keychain).</p> : null}
      <ErrorNote error={error} />
      {!data.providers.length ? <p className="note note-warn">No model provider is configured yet: executions fail with "model unavailable" until you add one.</p> : null}
      {data.providers.map((p) => (
        <article key={p.id} className="card stack" data-testid="provider">
          <div className="row">
            <strong className="grow">{providerLabel(p)}</strong>
            <span className="badge">{PROVIDER_KIND_INFO[p.kind].label}</span>
            <span className="badge" title="Where this provider comes from">
              {p.source === 'env' ? 'from environment' : p.source === 'auto' ? 'detected' : p.source}
            </span>
            {!p.enabled ? <span className="badge">disabled</span> : null}
          </div>
          {p.base_url ? <code className="small">{p.base_url}</code> : null}
          {p.models_dir ? <code className="small">{p.models_dir}</code> : null}
          <div className="small muted">{p.has_api_key ? 'API key set' : 'No API key'}</div>
          <div className="row">
            <button type="button" className="btn btn-small" onClick={() => void test(p.id)}>
              Test connection
            </button>
            {p.source !== 'registered' ? (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => void save({ providers: p.source === 'settings' ? savedInputs(data.providers).map((x) => (x.id === p.id ? { ...x, enabled: !p.enabled } : x)) : [...savedInputs(data.providers), { id: p.id, enabled: !p.enabled }] }, p.enabled ? 'Provider disabled.' : 'Provider enabled.')}
              >
                {p.enabled ? 'Disable' : 'Enable'}
              </button>
            ) : null}
            {p.source === 'settings' ? (
              <button type="button" className="btn btn-small" onClick={() => confirm(`Remove ${providerLabel(p)}?`) && void save({ providers: savedInputs(data.providers).filter((x) => x.id !== p.id) }, 'Provider removed.')}>
                Remove
              </button>
            ) : null}
            {tests[p.id] ? (
              <span className="small" role="status">
                {tests[p.id]}
              </span>
            ) : null}
          </div>
        </article>
      ))}
      <ProviderForm existing={data.providers.map((p) => p.id)} onAdd={(p) => save({ providers: [...savedInputs(data.providers), p] }, 'Provider added.')} />
      <RoutingTable settings={data} onSave={(routes, defaultModel) => save({ routes, default_model: defaultModel }, 'Model routing saved.')} />
    </div>
  );
}
